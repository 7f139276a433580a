import { type ExampleTool, exampleTools, runExampleTool } from '@tool-search/example-catalog';
import { tool } from 'langchain';

/** What a catalog tool reports when it runs (for the trace). */
export type ToolRunListener = (run: {
  toolName: string;
  input: unknown;
  output?: unknown;
  error?: unknown;
}) => void;

function toLangChainTool(exampleTool: ExampleTool, onRun: ToolRunListener) {
  return tool(
    async (input: unknown) => {
      try {
        const output = runExampleTool(exampleTool, input);
        onRun({ toolName: exampleTool.name, input, output });
        // The tool message's content: the result as JSON.
        return JSON.stringify(output);
      } catch (error) {
        onRun({ toolName: exampleTool.name, input, error });
        throw error;
      }
    },
    { name: exampleTool.name, description: exampleTool.description, schema: exampleTool.input },
  );
}

/** The example catalog as LangChain tools (`tool()` with zod input, local executors). */
export function createCatalogTools(onRun: ToolRunListener) {
  return exampleTools.map((exampleTool) => toLangChainTool(exampleTool, onRun));
}
