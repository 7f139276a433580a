/**
 * How the tools of several servers are named in one catalog, so that two servers' tools of one
 * name never hide each other:
 * - `'prefix-colliding'` (the default): a tool keeps its own name unless another server listed
 *   for the same caller offers a tool of that name; then every one of them is `server_tool`.
 * - `'prefix-all'`: every tool is `server_tool` (names that never change with what other servers
 *   offer, as Mastra's `MCPClient` names them).
 * A prefixed name that is still taken (a server offers both `a_b` and, through server `a`, `b`)
 * gets `_2`, `_3`, … in the order of `servers`, then of each server's listing.
 */
export type McpToolNaming = 'prefix-colliding' | 'prefix-all';

export interface ListedTool {
  readonly server: string;
  readonly mcpName: string;
}

/** The catalog name of each tool, in the order given (servers in their order, tools in listing order). */
export function catalogNames(tools: readonly ListedTool[], naming: McpToolNaming): string[] {
  const servers = new Map<string, Set<string>>();
  for (const tool of tools) {
    let owners = servers.get(tool.mcpName);
    if (!owners) {
      owners = new Set();
      servers.set(tool.mcpName, owners);
    }
    owners.add(tool.server);
  }
  const wanted = tools.map((tool) =>
    naming === 'prefix-all' || servers.get(tool.mcpName)!.size > 1
      ? `${tool.server}_${tool.mcpName}`
      : tool.mcpName,
  );
  // Names kept as given are taken first, so a prefixed name never displaces a server's own name.
  const taken = new Set<string>();
  wanted.forEach((name, index) => {
    if (name === tools[index]!.mcpName) taken.add(name);
  });
  return wanted.map((name, index) => {
    if (name === tools[index]!.mcpName) return name;
    let candidate = name;
    for (let suffix = 2; taken.has(candidate); suffix++) candidate = `${name}_${suffix}`;
    taken.add(candidate);
    return candidate;
  });
}
