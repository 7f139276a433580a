import { oneLine, renderTrace } from '@tool-search/example-catalog';
import type { McpRequestTrace } from './traced-mcp-requests';

export interface RenderMcpTraceOptions {
  readonly color?: boolean;
}

const number = (value: number) => value.toLocaleString('en-US');
const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** What the request's MCP listing cost, on one line: eager (a framework's client) or ours (no schemas). */
export function renderListing(trace: McpRequestTrace): string {
  const { tools, bytes, tokens, ms } = trace.listing;
  const eager = !trace.framework.includes('@tool-search/mcp');
  return eager
    ? `listed ${tools} tools with every schema: ${kilobytes(bytes)}, ${number(tokens)} tokens on each model call without tool search, ${ms.toFixed(0)} ms`
    : `listed ${tools} tools, names and descriptions only (schemas read on load): ${kilobytes(bytes)}, ${number(tokens)} tokens indexed, ${ms.toFixed(0)} ms`;
}

/** The example catalog's trace, plus the MCP lines: what was listed, and which servers were unavailable and why. */
export function renderMcpTrace(trace: McpRequestTrace, options: RenderMcpTraceOptions = {}): string {
  const red = (text: string) => (options.color ? `\u001b[31m${text}\u001b[0m` : text);
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[0m` : text);
  const lines = [renderTrace(trace, options), `  ${bold('mcp')}     ${renderListing(trace)}`];
  for (const { server, message } of trace.unavailable)
    lines.push(`          ${red(`unavailable ${server}`)}: ${oneLine(message, 200)}`);
  return lines.join('\n');
}
