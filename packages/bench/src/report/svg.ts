/**
 * Small hand-written SVG charts for docs/benchmarks.md: grouped bars and lines (log scale
 * optional). No chart library: a chart is a string, deterministic for the same figures.
 */

export interface Series {
  readonly name: string;
  readonly color: string;
}

const WIDTH = 760;
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"';
const MARGIN = { top: 48, right: 16, bottom: 64, left: 64 };

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A compact label for an axis tick or a bar value. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  const magnitude = Math.abs(value);
  if (magnitude >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (magnitude >= 10_000) return `${trim(value / 1000)}k`;
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return trim(value, 1);
  if (magnitude >= 1) return trim(value, 2);
  if (magnitude === 0) return '0';
  return trim(value, magnitude >= 0.01 ? 3 : 4);
}
const trim = (value: number, digits = 1): string => String(Number(value.toFixed(digits)));

function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

interface Scale {
  readonly toY: (value: number) => number;
  readonly ticks: readonly number[];
}

/** From `from` (default 0) to a round number at or above `max`. */
function linearScale(max: number, top: number, bottom: number, from = 0): Scale {
  const upper = from + niceMax(max - from);
  const span = upper - from;
  return {
    toY: (value) => bottom - (Math.max(0, value - from) / span) * (bottom - top),
    ticks: [0, 0.25, 0.5, 0.75, 1].map((fraction) => from + fraction * span),
  };
}

function logScale(min: number, max: number, top: number, bottom: number): Scale {
  const low = 10 ** Math.floor(Math.log10(Math.max(min, 1e-6)));
  const high = 10 ** Math.ceil(Math.log10(Math.max(max, low * 10)));
  const span = Math.log10(high) - Math.log10(low);
  const ticks: number[] = [];
  for (let tick = low; tick <= high * 1.0001; tick *= 10) ticks.push(tick);
  return {
    toY: (value) => bottom - ((Math.log10(Math.max(value, low)) - Math.log10(low)) / span) * (bottom - top),
    ticks,
  };
}

function frame(title: string, height: number, body: string[], subtitle?: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="22" ${FONT} font-size="15" font-weight="600" fill="#111">${escapeXml(title)}</text>`,
    subtitle
      ? `<text x="${MARGIN.left}" y="38" ${FONT} font-size="11" fill="#555">${escapeXml(subtitle)}</text>`
      : '',
    ...body,
    '</svg>',
    '',
  ]
    .filter((line) => line.length > 0)
    .join('\n');
}

/** The scale of a chart's values (the positive finite ones), log or linear, from `top` to `bottom`. */
function valueScale(
  values: readonly (readonly number[])[],
  log: boolean | undefined,
  top: number,
  bottom: number,
  from?: number,
): Scale {
  const finite = values.flat().filter((value) => Number.isFinite(value) && value > 0);
  const max = finite.length > 0 ? Math.max(...finite) : 1;
  return log
    ? logScale(finite.length > 0 ? Math.min(...finite) : 1, max, top, bottom)
    : linearScale(max, top, bottom, from);
}

function axis(scale: Scale, bottom: number, unit: string): string[] {
  const lines: string[] = [];
  for (const tick of scale.ticks) {
    const y = scale.toY(tick).toFixed(1);
    lines.push(
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`,
    );
    lines.push(
      `<text x="${MARGIN.left - 6}" y="${y}" dy="4" text-anchor="end" ${FONT} font-size="11" fill="#555">${escapeXml(formatValue(tick))}</text>`,
    );
  }
  lines.push(
    `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${bottom}" y2="${bottom}" stroke="#999"/>`,
  );
  lines.push(
    `<text transform="translate(14 ${(MARGIN.top + bottom) / 2}) rotate(-90)" text-anchor="middle" ${FONT} font-size="11" fill="#555">${escapeXml(unit)}</text>`,
  );
  return lines;
}

/** A category under the axis; a newline in it starts a second line. */
function categoryLabel(x: number, y: number, text: string): string {
  const lines = text.split('\n');
  const spans = lines
    .map(
      (line, index) => `<tspan x="${x.toFixed(1)}" dy="${index === 0 ? 0 : 13}">${escapeXml(line)}</tspan>`,
    )
    .join('');
  return `<text x="${x.toFixed(1)}" y="${y}" text-anchor="middle" ${FONT} font-size="12" fill="#222">${spans}</text>`;
}

const LEGEND_ROW = 16;

/** Legend entries laid out left to right, wrapping to a new row at the chart's width. */
function legendRows(series: readonly Series[]): { entry: Series; x: number; row: number }[] {
  const placed: { entry: Series; x: number; row: number }[] = [];
  let x = MARGIN.left;
  let row = 0;
  for (const entry of series) {
    const width = 24 + entry.name.length * 6.2;
    if (x > MARGIN.left && x + width > WIDTH - MARGIN.right) {
      row += 1;
      x = MARGIN.left;
    }
    placed.push({ entry, x, row });
    x += width;
  }
  return placed;
}

/** Extra height the legend needs beyond its first row. */
const legendExtra = (series: readonly Series[]): number =>
  Math.max(0, ...legendRows(series).map((item) => item.row)) * LEGEND_ROW;

function legend(series: readonly Series[], height: number): string[] {
  const lines: string[] = [];
  const rows = legendRows(series);
  const lastRow = Math.max(0, ...rows.map((item) => item.row));
  for (const { entry, x, row } of rows) {
    const y = height - 16 - (lastRow - row) * LEGEND_ROW;
    lines.push(`<rect x="${x.toFixed(1)}" y="${y - 9}" width="10" height="10" fill="${entry.color}"/>`);
    lines.push(
      `<text x="${(x + 14).toFixed(1)}" y="${y}" ${FONT} font-size="11" fill="#333">${escapeXml(entry.name)}</text>`,
    );
  }
  return lines;
}

/**
 * Grouped bars: one group per category, one bar per series. `values[group][series]`; NaN draws no
 * bar but a "n/a" mark. Values are printed above the bars.
 */
export function barChart(options: {
  title: string;
  subtitle?: string;
  unit: string;
  groups: readonly string[];
  series: readonly Series[];
  values: readonly (readonly number[])[];
  log?: boolean;
  height?: number;
  /** Mark a missing value (NaN) with "n/a" (default) or leave its place empty. */
  markMissing?: boolean;
}): string {
  // A second line under a category takes room from the plot, not from the legend.
  const extraLines = Math.max(0, ...options.groups.map((group) => group.split('\n').length - 1));
  const extra = extraLines * 13 + legendExtra(options.series);
  const height = (options.height ?? 340) + extra;
  const top = MARGIN.top + 8;
  const bottom = height - MARGIN.bottom - extra;
  const scale = valueScale(options.values, options.log, top, bottom);
  const body = axis(scale, bottom, options.unit);
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const groupWidth = plotWidth / Math.max(1, options.groups.length);
  const barWidth = Math.min(34, (groupWidth * 0.8) / Math.max(1, options.series.length));
  options.groups.forEach((group, groupIndex) => {
    const groupX = MARGIN.left + groupIndex * groupWidth;
    const barsX = groupX + (groupWidth - barWidth * options.series.length) / 2;
    options.series.forEach((entry, seriesIndex) => {
      const value = options.values[groupIndex]?.[seriesIndex] ?? Number.NaN;
      const x = barsX + seriesIndex * barWidth;
      if (!Number.isFinite(value)) {
        if (options.markMissing === false) return;
        body.push(
          `<text x="${(x + barWidth / 2).toFixed(1)}" y="${bottom - 4}" text-anchor="middle" ${FONT} font-size="9" fill="#999">n/a</text>`,
        );
        return;
      }
      const y = scale.toY(value);
      body.push(
        `<rect x="${(x + 1).toFixed(1)}" y="${y.toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${Math.max(0, bottom - y).toFixed(1)}" fill="${entry.color}"><title>${escapeXml(`${entry.name}, ${group}: ${formatValue(value)}`)}</title></rect>`,
      );
      body.push(
        `<text x="${(x + barWidth / 2).toFixed(1)}" y="${(y - 3).toFixed(1)}" text-anchor="middle" ${FONT} font-size="9" fill="#333">${escapeXml(formatValue(value))}</text>`,
      );
    });
    body.push(categoryLabel(groupX + groupWidth / 2, bottom + 16, group));
  });
  body.push(...legend(options.series, height));
  return frame(options.title, height, body, options.subtitle);
}

/** Lines over categorical x values (catalog sizes), one per series; NaN points are skipped. */
export function lineChart(options: {
  title: string;
  subtitle?: string;
  unit: string;
  x: readonly string[];
  series: readonly Series[];
  values: readonly (readonly number[])[];
  log?: boolean;
  height?: number;
  /** Where a linear axis starts (default 0): a value below it is drawn at the axis. */
  from?: number;
}): string {
  const extra = legendExtra(options.series);
  const height = (options.height ?? 340) + extra;
  const top = MARGIN.top + 8;
  const bottom = height - MARGIN.bottom - extra;
  const scale = valueScale(options.values, options.log, top, bottom, options.from);
  const body = axis(scale, bottom, options.unit);
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const step = plotWidth / Math.max(1, options.x.length);
  const xOf = (index: number) => MARGIN.left + step * (index + 0.5);
  options.x.forEach((label, index) => {
    body.push(categoryLabel(xOf(index), bottom + 16, label));
  });
  options.series.forEach((entry, seriesIndex) => {
    const points = options.x
      .map((_, index) => ({ index, value: options.values[seriesIndex]?.[index] ?? Number.NaN }))
      .filter((point) => Number.isFinite(point.value) && point.value > 0);
    if (points.length > 1) {
      const path = points.map(
        (point) => `${xOf(point.index).toFixed(1)},${scale.toY(point.value).toFixed(1)}`,
      );
      body.push(
        `<polyline points="${path.join(' ')}" fill="none" stroke="${entry.color}" stroke-width="2"/>`,
      );
    }
    for (const point of points) {
      const x = xOf(point.index).toFixed(1);
      const y = scale.toY(point.value).toFixed(1);
      body.push(
        `<circle cx="${x}" cy="${y}" r="3.5" fill="${entry.color}"><title>${escapeXml(`${entry.name}, ${options.x[point.index]}: ${formatValue(point.value)}`)}</title></circle>`,
      );
      body.push(
        `<text x="${(Number(x) + 6).toFixed(1)}" y="${(Number(y) + 3).toFixed(1)}" ${FONT} font-size="9" fill="${entry.color}">${escapeXml(formatValue(point.value))}</text>`,
      );
    }
  });
  body.push(...legend(options.series, height));
  return frame(options.title, height, body, options.subtitle);
}
