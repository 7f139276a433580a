import { createTool } from '@mastra/core/tools';
import { type ExampleTool, exampleTools, runExampleTool } from '@tool-search/example-catalog';

/** What a catalog tool reports when it runs (for the trace). */
export type ToolRunListener = (run: {
  toolName: string;
  input: unknown;
  output?: unknown;
  error?: unknown;
}) => void;

function toMastraTool(exampleTool: ExampleTool, onRun: ToolRunListener) {
  return createTool({
    id: exampleTool.name,
    description: exampleTool.description,
    inputSchema: exampleTool.input,
    execute: async (input) => {
      try {
        const output = runExampleTool(exampleTool, input);
        onRun({ toolName: exampleTool.name, input, output });
        return output;
      } catch (error) {
        onRun({ toolName: exampleTool.name, input, error });
        throw error;
      }
    },
  });
}

/** The example catalog as Mastra tools keyed by name (`createTool` with zod input, local executors). */
export function createCatalogTools(onRun: ToolRunListener) {
  return Object.fromEntries(
    exampleTools.map((exampleTool) => [exampleTool.name, toMastraTool(exampleTool, onRun)]),
  );
}
