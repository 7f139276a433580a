import { fileURLToPath } from 'node:url';

/**
 * How to spawn one example server over stdio with the caller's token: `{ command, args, env }`,
 * the shape every framework's stdio MCP transport takes. Runs on this Node with tsx.
 */
export function stdioServerCommand(options: {
  readonly server: string;
  readonly token: string;
  readonly tokens: Readonly<Record<string, string>>;
  readonly callLog?: string;
}): { command: string; args: string[]; env: Record<string, string>; cwd: string } {
  const script = fileURLToPath(new URL('./stdio-server.ts', import.meta.url));
  return {
    command: process.execPath,
    // tsx (`--import tsx`) resolves from the example's folder.
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    args: ['--conditions=@tool-search/source', '--import', 'tsx', script, options.server],
    env: {
      PATH: process.env.PATH ?? '',
      TOOL_SEARCH_MCP_TOKEN: options.token,
      TOOL_SEARCH_MCP_TOKENS: JSON.stringify(options.tokens),
      ...(options.callLog ? { TOOL_SEARCH_MCP_CALL_LOG: options.callLog } : {}),
    },
  };
}
