import { createOfflineHybridRanker } from './hybrid-ranker';
import { demoRequests } from './requests';

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

/** What an agent example runs with, from its command line. */
export interface ExampleSettings {
  /** The requests given, else the demo requests. */
  readonly requests: readonly string[];
  readonly model: 'offline' | 'auto';
  readonly ranker: Awaited<ReturnType<typeof createOfflineHybridRanker>> | undefined;
  /** Whether to print in colour (a terminal that has colours; honours NO_COLOR and FORCE_COLOR). */
  readonly color: boolean;
}

/**
 * The settings of an agent example's run, from its command line; a bad command line is said on
 * stderr and ends the process with exit code 2.
 */
export async function exampleSettings(argv: readonly string[]): Promise<ExampleSettings> {
  const parsed = parseExampleArguments(argv);
  if ('error' in parsed) {
    console.error(parsed.error);
    process.exit(2);
  }
  return {
    requests: parsed.requests.length > 0 ? parsed.requests : demoRequests.map((request) => request.text),
    model: parsed.offline ? 'offline' : 'auto',
    ranker: parsed.hybrid ? await createOfflineHybridRanker() : undefined,
    color: process.stdout.isTTY === true && process.stdout.hasColors(),
  };
}
