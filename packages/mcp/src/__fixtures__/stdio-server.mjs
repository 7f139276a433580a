// A real MCP server of the SDK over stdio, run as a child process by the tests: two tools, and
// each call answered with the process's own token (from its environment).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'files', version: '1.0.0' });
server.registerTool(
  'readFile',
  {
    description: 'Read a text file from the workspace.',
    inputSchema: { path: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ path }) => ({
    content: [{ type: 'text', text: `contents of ${path} for ${process.env.FILES_TOKEN}` }],
  }),
);
server.registerTool(
  'deleteFile',
  {
    description: 'Delete a file from the workspace.',
    inputSchema: { path: z.string() },
    annotations: { destructiveHint: true },
  },
  async ({ path }) => ({ content: [{ type: 'text', text: `deleted ${path}` }] }),
);
await server.connect(new StdioServerTransport());
