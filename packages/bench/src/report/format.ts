/** Number formats shared by the markdown report and the console summary. */

/** A metric in 0..1 as the eval README writes it: `.705`. */
export const metric = (value: number): string =>
  Number.isFinite(value)
    ? value
        .toFixed(3)
        .replace(/^0\./, '.')
        .replace(/^1\.000$/, '1.000')
    : 'n/a';

/** Milliseconds, with the precision a reader needs at that size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1_000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  if (value >= 1) return `${value.toFixed(2)} ms`;
  if (value >= 0.01) return `${value.toFixed(3)} ms`;
  return `${(value * 1000).toFixed(1)} µs`;
}

/** A ratio against ours: `12×`, `0.5×`. */
export function ratio(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return '—';
  if (value >= 100) return `${value.toFixed(0)}×`;
  if (value >= 10) return `${value.toFixed(0)}×`;
  return `${value.toFixed(1)}×`;
}

export const integer = (value: number): string =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';

export const bytes = (value: number): string =>
  !Number.isFinite(value)
    ? 'n/a'
    : value >= 1024
      ? `${(value / 1024).toFixed(1)} kB`
      : `${Math.round(value)} B`;

export const percent = (value: number): string =>
  Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a';

export function duration(valueMs: number): string {
  const seconds = Math.round(valueMs / 1000);
  if (seconds < 60) return `${seconds} s`;
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** A markdown table; `align` per column ('l' or 'r'). */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align?: string,
): string {
  const alignment = header.map((_, index) => ((align ?? '')[index] === 'r' ? '---:' : '---'));
  return [
    `| ${header.join(' | ')} |`,
    `|${alignment.join('|')}|`,
    ...rows.map((row) => `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');
}
