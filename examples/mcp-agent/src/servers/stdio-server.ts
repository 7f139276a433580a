// One example server over stdio, for clients that spawn their servers:
//   tsx --conditions=@tool-search/source src/servers/stdio-server.ts <code|workspace|travel|money>
// stdio has no HTTP headers, so the caller's token comes in the environment, as MCP clients pass
// it to a spawned server: TOOL_SEARCH_MCP_TOKEN, checked against TOOL_SEARCH_MCP_TOKENS
// (JSON `{ token: user }`). An unknown token stops the server before it answers anything. With
// TOOL_SEARCH_MCP_CALL_LOG set, each call is appended to that file as one JSON line.
import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createCatalogServer } from './catalog-server';
import { exampleServerSpecs } from './example-servers';
import { createTokenTable } from './token-table';

const name = process.argv[2];
const spec = exampleServerSpecs().find((candidate) => candidate.name === name);
if (!spec) {
  console.error(
    `Usage: stdio-server.ts <${exampleServerSpecs()
      .map((candidate) => candidate.name)
      .join('|')}>`,
  );
  process.exit(2);
}
const token = process.env.TOOL_SEARCH_MCP_TOKEN ?? '';
const tokens = createTokenTable(
  JSON.parse(process.env.TOOL_SEARCH_MCP_TOKENS ?? '{}') as Record<string, string>,
);
const user = tokens.userFor(token);
if (user === undefined) {
  console.error(`${spec.name}: unknown or revoked token`);
  process.exit(1);
}
const log = process.env.TOOL_SEARCH_MCP_CALL_LOG;
const server = createCatalogServer(spec, { token, user }, (call) => {
  if (log) appendFileSync(log, `${JSON.stringify(call)}\n`);
});
await server.connect(new StdioServerTransport());
