import {
  type ExampleTool,
  exampleTools,
  runExampleToolReported,
  type ToolRunListener,
} from '@tool-search/example-catalog';
import { type Tool, tool } from 'ai';

function toAiSdkTool(exampleTool: ExampleTool, onRun: ToolRunListener): Tool {
  return tool({
    description: exampleTool.description,
    inputSchema: exampleTool.input,
    execute: async (input) => runExampleToolReported(exampleTool, input, onRun),
  });
}

/** The example catalog as AI SDK tools keyed by name (zod input schemas, local executors). */
export function createCatalogTools(onRun: ToolRunListener): Record<string, Tool> {
  return Object.fromEntries(
    exampleTools.map((exampleTool) => [exampleTool.name, toAiSdkTool(exampleTool, onRun)]),
  );
}
