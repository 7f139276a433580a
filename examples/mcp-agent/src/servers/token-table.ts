/**
 * Which bearer token belongs to which user, for the example MCP servers. A token that is not in
 * the table, or was revoked, is answered with HTTP 401 (over stdio: the server refuses to start).
 */
export interface TokenTable {
  /** The user a token belongs to, or `undefined` for an unknown or revoked token. */
  userFor(token: string): string | undefined;
  /** Adds (or gives back) a token. */
  grant(token: string, user: string): void;
  /** From now on the token is refused; calls already running finish. */
  revoke(token: string): void;
  /** The table as `{ token: user }`, e.g. for a stdio server's environment. */
  entries(): Record<string, string>;
}

export function createTokenTable(initial: Readonly<Record<string, string>> = {}): TokenTable {
  // A Map, so a token such as `__proto__` is only ever a key.
  const users = new Map<string, string>(Object.entries(initial));
  return {
    userFor: (token) => users.get(token),
    grant: (token, user) => {
      users.set(token, user);
    },
    revoke: (token) => {
      users.delete(token);
    },
    entries: () => Object.fromEntries(users),
  };
}

/** The bearer token of an `Authorization` header, or `undefined` when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, token, ...rest] = header.trim().split(/\s+/);
  if (rest.length > 0 || !token || scheme?.toLowerCase() !== 'bearer') return undefined;
  return token;
}
