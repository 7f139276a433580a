import { createTool } from '@mastra/core/tools';
import {
  type ExampleTool,
  exampleTools,
  runExampleToolReported,
  type ToolRunListener,
} from '@tool-search/example-catalog';

function toMastraTool(exampleTool: ExampleTool, onRun: ToolRunListener) {
  return createTool({
    id: exampleTool.name,
    description: exampleTool.description,
    inputSchema: exampleTool.input,
    execute: async (input) => runExampleToolReported(exampleTool, input, onRun),
  });
}

/** The example catalog as Mastra tools keyed by name (`createTool` with zod input, local executors). */
export function createCatalogTools(onRun: ToolRunListener) {
  return Object.fromEntries(
    exampleTools.map((exampleTool) => [exampleTool.name, toMastraTool(exampleTool, onRun)]),
  );
}
