import { createOfflineHybridRanker } from './hybrid-ranker';
import { type NativeProvider, nativeProviders } from './provider-requests';
import { demoRequests } from './requests';

/** The example agents `pnpm demo` can run, by `--framework` name. */
export const demoFrameworks = ['ai-sdk', 'mastra', 'langchain'] as const;
export type DemoFramework = (typeof demoFrameworks)[number];

const frameworkAliases: Readonly<Record<string, DemoFramework>> = {
  aisdk: 'ai-sdk',
  ai: 'ai-sdk',
  vercel: 'ai-sdk',
};

/** What `pnpm demo`'s command line asks for. */
export interface DemoArguments {
  readonly framework: DemoFramework;
  /** `--hybrid`: the hybrid ranker with the offline word-vector embedder. */
  readonly hybrid: boolean;
  /** `--real`: a real model (an API key is set: checked here). */
  readonly real: boolean;
  /**
   * `--native <provider>`: the AI SDK agent in the default mode and behind the provider's deferred
   * loading, side by side, through the real provider package and a local fake provider server.
   */
  readonly native?: NativeProvider;
  /** The requests to run (none: the demo requests). */
  readonly requests: readonly string[];
}

/**
 * `pnpm demo`'s command line (`[--framework <name>] [--hybrid] [--real] [--native <provider>]
 * ["your request" ...]`). `{ help: true }` for `--help`; `{ error, usage }` for what cannot run: an
 * unknown option (with `usage`: print the usage after it), `--framework` with no or an unknown name,
 * an empty request (it would otherwise run the five demo requests instead), `--real` with neither
 * `OPENAI_API_KEY` nor `ANTHROPIC_API_KEY` set (it would otherwise run the offline planner), and
 * `--native` with no or an unknown provider, with `--real`, or with a framework other than the AI SDK.
 */
export function parseDemoArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): DemoArguments | { readonly help: true } | { readonly error: string; readonly usage?: true } {
  let framework = 'ai-sdk';
  let hybrid = false;
  let real = false;
  let native: string | undefined;
  let frameworkGiven = false;
  const requests: string[] = [];
  const args = argv.filter((arg) => arg !== '--');
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    if (arg === '--hybrid') hybrid = true;
    else if (arg === '--real') real = true;
    else if (arg === '--framework' || arg === '-f' || arg.startsWith('--framework=')) {
      const value = arg.startsWith('--framework=') ? arg.slice('--framework='.length) : args[++index];
      if (value === undefined || value.startsWith('-'))
        return { error: `--framework needs a value: ${demoFrameworks.join(', ')}.` };
      framework = value;
      frameworkGiven = true;
    } else if (arg === '--native' || arg.startsWith('--native=')) {
      const value = arg.startsWith('--native=') ? arg.slice('--native='.length) : args[++index];
      if (value === undefined || value.startsWith('-'))
        return { error: `--native needs a provider: ${nativeProviders.join(', ')}.` };
      native = value.toLowerCase();
    } else if (arg.startsWith('-')) return { error: `Unknown option ${arg}.`, usage: true };
    else if (arg.trim().length === 0) return { error: 'A request is empty: write what the agent should do.' };
    else requests.push(arg);
  }
  const name = framework.toLowerCase();
  const chosen = Object.hasOwn(frameworkAliases, name) ? frameworkAliases[name]! : name;
  if (!(demoFrameworks as readonly string[]).includes(chosen)) {
    return { error: `Unknown framework "${framework}": choose ${demoFrameworks.join(', ')}.` };
  }
  if (native !== undefined) {
    if (!(nativeProviders as readonly string[]).includes(native))
      return { error: `Unknown provider "${native}" for --native: choose ${nativeProviders.join(', ')}.` };
    if (real)
      return {
        error:
          '--native runs the offline planner behind a local fake provider server; it cannot be combined with --real.',
      };
    if (frameworkGiven && chosen !== 'ai-sdk')
      return { error: '--native runs the AI SDK agent; leave --framework out or use --framework ai-sdk.' };
    return { framework: 'ai-sdk', hybrid, real, native: native as NativeProvider, requests };
  }
  if (real && !env.OPENAI_API_KEY && !env.ANTHROPIC_API_KEY) {
    return {
      error:
        '--real needs OPENAI_API_KEY or ANTHROPIC_API_KEY in the environment; without a key, leave --real out and the demo runs the offline planner.',
    };
  }
  return { framework: chosen as DemoFramework, hybrid, real, requests };
}

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
