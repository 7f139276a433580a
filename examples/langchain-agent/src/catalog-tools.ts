import {
  type ExampleTool,
  exampleTools,
  runExampleToolReported,
  type ToolRunListener,
} from '@tool-search/example-catalog';
import { tool } from 'langchain';

function toLangChainTool(exampleTool: ExampleTool, onRun: ToolRunListener) {
  return tool(
    // The tool message's content: the result as JSON.
    async (input: unknown) => JSON.stringify(runExampleToolReported(exampleTool, input, onRun)),
    { name: exampleTool.name, description: exampleTool.description, schema: exampleTool.input },
  );
}

/** The example catalog as LangChain tools (`tool()` with zod input, local executors). */
export function createCatalogTools(onRun: ToolRunListener) {
  return exampleTools.map((exampleTool) => toLangChainTool(exampleTool, onRun));
}
