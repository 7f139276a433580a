import { domains, type ExampleTool } from '@tool-search/example-catalog';
import type { CatalogServerSpec, RecordedCall } from './catalog-server';
import { type HttpCatalogServer, startHttpCatalogServer } from './http-server';
import { createTokenTable, type TokenTable } from './token-table';

/** How the example catalog's 18 domains are split into servers, as vendors split theirs. */
const serverDomains = {
  code: ['code-hosting', 'issue-tracking', 'devops', 'databases'],
  workspace: ['chat', 'calendar', 'mail', 'files', 'notes', 'crm'],
  travel: ['flights', 'hotels', 'restaurants', 'weather', 'maps'],
  money: ['payments', 'analytics', 'finance'],
} as const;

export type ExampleServerName = keyof typeof serverDomains;

/** The example catalog as four servers' specs (every catalog tool in exactly one). */
export function exampleServerSpecs(): CatalogServerSpec[] {
  return Object.entries(serverDomains).map(([name, ids]) => {
    const parts = ids.map((id) => domains.find((domain) => domain.id === id)!);
    return {
      name,
      description: `${parts.map((domain) => domain.title).join(', ')}: ${parts.map((domain) => domain.description).join(' ')}`,
      tools: parts.flatMap((domain) => domain.tools) as ExampleTool[],
    };
  });
}

/** The two demo callers and their tokens. */
export const exampleUsers = { alice: 'token-alice', bob: 'token-bob' } as const;

export interface ExampleServers {
  readonly servers: readonly HttpCatalogServer[];
  /** `{ code: 'http://127.0.0.1:…/mcp', … }` */
  readonly urls: Readonly<Record<string, string>>;
  readonly tokens: TokenTable;
  /** Every call any of them ran, in order. */
  readonly calls: RecordedCall[];
  server(name: string): HttpCatalogServer;
  close(): Promise<void>;
}

export interface StartExampleServersOptions {
  /** `{ token: user }`; the default: alice's and bob's tokens. */
  readonly tokens?: Readonly<Record<string, string>>;
  /** Which servers to run (default: all four). */
  readonly specs?: readonly CatalogServerSpec[];
}

/** Starts the example servers over Streamable HTTP on loopback ports, sharing one token table. */
export async function startExampleServers(options: StartExampleServersOptions = {}): Promise<ExampleServers> {
  const tokens = createTokenTable(
    options.tokens ?? { [exampleUsers.alice]: 'alice', [exampleUsers.bob]: 'bob' },
  );
  const calls: RecordedCall[] = [];
  const specs = options.specs ?? exampleServerSpecs();
  const servers = await Promise.all(
    specs.map((spec) => startHttpCatalogServer({ spec, tokens, onCall: (call) => calls.push(call) })),
  );
  return {
    servers,
    urls: Object.fromEntries(servers.map((server) => [server.name, server.url])),
    tokens,
    calls,
    server: (name) => {
      const found = servers.find((server) => server.name === name);
      if (!found) throw new Error(`No example server named "${name}"`);
      return found;
    },
    close: async () => {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}
