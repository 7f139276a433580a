import { type ExampleTool, exampleTools, runExampleTool } from '@tool-search/example-catalog';
import { type Tool, tool } from 'ai';

/** What a catalog tool reports when it runs (for the trace). */
export type ToolRunListener = (run: {
  toolName: string;
  input: unknown;
  output?: unknown;
  error?: unknown;
}) => void;

function toAiSdkTool(exampleTool: ExampleTool, onRun: ToolRunListener): Tool {
  return tool({
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

/** The example catalog as AI SDK tools keyed by name (zod input schemas, local executors). */
export function createCatalogTools(onRun: ToolRunListener): Record<string, Tool> {
  return Object.fromEntries(
    exampleTools.map((exampleTool) => [exampleTool.name, toAiSdkTool(exampleTool, onRun)]),
  );
}
