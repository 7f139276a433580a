/** The progress line the bench keeps on stderr while it works. */
export interface Progress {
  /** Starts a phase of `total` units (queries, iterations, catalogs). */
  phase(label: string, total: number): void;
  /** Moves the current phase to `done` units (or by `delta` with `advance`). */
  update(done: number, detail?: string): void;
  advance(delta?: number, detail?: string): void;
  /** A line that stays (a finished figure). */
  note(line: string): void;
  end(): void;
}

const formatElapsed = (ms: number): string => {
  const seconds = Math.round(ms / 1000);
  return seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
};

/**
 * On a terminal, one line rewritten in place; elsewhere (CI logs), a line per phase and at most
 * one line every `intervalMs`. Silent with `enabled: false` (tests).
 */
export function createProgress(
  options: { stream?: NodeJS.WriteStream; enabled?: boolean; now?: () => number; intervalMs?: number } = {},
): Progress {
  const stream = options.stream ?? process.stderr;
  const enabled = options.enabled ?? true;
  const now = options.now ?? (() => performance.now());
  const interval = options.intervalMs ?? 10_000;
  const tty = stream.isTTY === true;
  const started = now();
  let label = '';
  let total = 0;
  let done = 0;
  let detail = '';
  let lastPrinted = 0;
  let live = false;

  function render(force: boolean): void {
    if (!enabled) return;
    const percent = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
    const line = `[${formatElapsed(now() - started).padStart(5)}] ${label} ${done}/${total} (${percent}%)${detail ? ` ${detail}` : ''}`;
    if (tty) {
      stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 120) - 1)}`);
      live = true;
    } else if (force || now() - lastPrinted >= interval) {
      stream.write(`${line}\n`);
      lastPrinted = now();
    }
  }

  function clear(): void {
    if (enabled && tty && live) stream.write('\r\x1b[2K');
    live = false;
  }

  return {
    phase(nextLabel, nextTotal) {
      label = nextLabel;
      total = nextTotal;
      done = 0;
      detail = '';
      render(true);
    },
    update(nextDone, nextDetail) {
      done = nextDone;
      if (nextDetail !== undefined) detail = nextDetail;
      render(false);
    },
    advance(delta = 1, nextDetail) {
      done += delta;
      if (nextDetail !== undefined) detail = nextDetail;
      render(false);
    },
    note(line) {
      if (!enabled) return;
      clear();
      stream.write(`${line}\n`);
      render(false);
    },
    end() {
      clear();
    },
  };
}
