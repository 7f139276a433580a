/** What an agent example's command line asks for. */
export interface ExampleArguments {
  /** The requests to run (none: the demo requests). */
  readonly requests: readonly string[];
  /** `--offline`: the offline planner even when an API key is set. */
  readonly offline: boolean;
  /** `--hybrid`: the hybrid ranker with the offline word-vector embedder. */
  readonly hybrid: boolean;
}

const FLAGS = new Set(['--offline', '--hybrid']);

/**
 * The agent examples' command line (`start [-- [--offline] [--hybrid] "your request" ...]`):
 * requests, and the two flags. An unknown option or an empty request is an error (a message to
 * print), not a request to run: `-f langchain` would otherwise be searched for as two requests.
 */
export function parseExampleArguments(
  argv: readonly string[],
): ExampleArguments | { readonly error: string } {
  const requests: string[] = [];
  for (const arg of argv) {
    if (arg === '--') continue;
    if (arg.startsWith('-')) {
      if (!FLAGS.has(arg))
        return { error: `Unknown option ${JSON.stringify(arg)}: the options are --offline and --hybrid.` };
      continue;
    }
    if (arg.trim().length === 0) return { error: 'A request is empty: write what the agent should do.' };
    requests.push(arg);
  }
  return { requests, offline: argv.includes('--offline'), hybrid: argv.includes('--hybrid') };
}
