/**
 * The clients of one tool source, one per server and caller: made by the server's `connect` with
 * the caller's request context (so with the caller's own credentials), kept for later requests of
 * the same caller (at most `maxCallers` callers, least recently used closed first), dropped when
 * the transport closes or a request on it fails, and never handed to another caller.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolSearchError } from '@tool-search/core';

/** What a server's `connect` is given. */
export interface McpConnectArgs<TContext> {
  readonly server: string;
  /** The caller's request context (their identity, their token). */
  readonly requestContext: TContext | undefined;
  readonly signal: AbortSignal;
}

/**
 * Opens a connection to one server for one caller: a connected SDK `Client`, or a `Transport`
 * (Streamable HTTP, stdio, in memory) that the source connects with a client of its own.
 */
export type McpConnect<TContext> = (
  args: McpConnectArgs<TContext>,
) => Client | Transport | Promise<Client | Transport>;

export interface Connections<TContext> {
  /** The caller's client for the server, connected on first use. */
  client(
    server: string,
    caller: string,
    requestContext: TContext | undefined,
    signal?: AbortSignal,
  ): Promise<Client>;
  /** Forgets (and closes) the caller's client, after a failure on it. */
  drop(server: string, caller: string, client?: Client): void;
  close(): Promise<void>;
}

export interface ConnectionsOptions<TContext> {
  readonly connectors: ReadonlyMap<string, McpConnect<TContext>>;
  readonly maxCallers: number;
  readonly connectTimeoutMs: number;
  /** A server told this caller's client that its tools changed. */
  readonly onListChanged: (server: string, caller: string) => void;
}

const CLIENT_INFO = { name: 'tool-search', version: '0.1.0' };

function isClient(value: unknown): value is Client {
  return (
    value instanceof Client ||
    (typeof (value as Client | null)?.listTools === 'function' &&
      typeof (value as Client).callTool === 'function')
  );
}

function isTransport(value: unknown): value is Transport {
  return (
    typeof (value as Transport | null)?.start === 'function' &&
    typeof (value as Transport).send === 'function'
  );
}

export function createConnections<TContext>(options: ConnectionsOptions<TContext>): Connections<TContext> {
  const { connectors, maxCallers, connectTimeoutMs, onListChanged } = options;
  const open = new Map<string, Promise<Client>>();
  const keyOf = (server: string, caller: string) => `${server}\u0000${caller}`;

  const closeQuietly = (pending: Promise<Client>) => {
    pending.then((client) => client.close()).catch(() => {});
  };

  async function connect(
    server: string,
    caller: string,
    requestContext: TContext | undefined,
    signal?: AbortSignal,
  ) {
    const connector = connectors.get(server);
    if (!connector) throw new ToolSearchError('INVALID_OPTIONS', `No MCP server is named "${server}".`);
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const made = await connector({ server, requestContext, signal: controller.signal });
      let client: Client;
      if (isClient(made)) {
        client = made;
        if (client.transport === undefined) {
          throw new ToolSearchError(
            'INVALID_OPTIONS',
            `The connect of MCP server "${server}" answered a client that is not connected.`,
          );
        }
      } else if (isTransport(made)) {
        client = new Client(CLIENT_INFO);
        await client.connect(made, { timeout: connectTimeoutMs, signal: controller.signal });
      } else {
        throw new ToolSearchError(
          'INVALID_OPTIONS',
          `The connect of MCP server "${server}" must answer an MCP Client or a Transport.`,
        );
      }
      // The source relists on the server's word; this replaces a handler set on the client before.
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => onListChanged(server, caller));
      const previous = client.onclose;
      client.onclose = () => {
        previous?.();
        drop(server, caller, client);
      };
      return client;
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  function drop(server: string, caller: string, client?: Client) {
    const key = keyOf(server, caller);
    const pending = open.get(key);
    if (!pending) return;
    if (client === undefined) {
      open.delete(key);
      closeQuietly(pending);
      return;
    }
    // Only the client that failed: a newer one of the caller stays.
    pending.then(
      (current) => {
        if (current === client && open.get(key) === pending) {
          open.delete(key);
          closeQuietly(pending);
        }
      },
      () => {},
    );
  }

  return {
    client(server, caller, requestContext, signal) {
      const key = keyOf(server, caller);
      let pending = open.get(key);
      if (pending) {
        // Most recently used last: the first key is the one to close when full.
        open.delete(key);
        open.set(key, pending);
        return pending;
      }
      pending = connect(server, caller, requestContext, signal);
      open.set(key, pending);
      pending.catch(() => {
        if (open.get(key) === pending) open.delete(key);
      });
      while (open.size > maxCallers * Math.max(1, connectors.size)) {
        const [oldest, client] = open.entries().next().value as [string, Promise<Client>];
        open.delete(oldest);
        closeQuietly(client);
      }
      return pending;
    },
    drop,
    async close() {
      const all = [...open.values()];
      open.clear();
      await Promise.allSettled(all.map(async (pending) => (await pending).close()));
    },
  };
}
