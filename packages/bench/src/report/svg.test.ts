import { describe, expect, it } from 'vitest';
import { barChart, formatValue, lineChart } from './svg';

const series = [
  { name: 'ours', color: '#2563eb' },
  { name: 'theirs & co', color: '#ea580c' },
];

describe('formatValue', () => {
  it('prints a figure at the precision its size needs', () => {
    expect([0, 0.0042, 0.123, 1.234, 12.34, 123.4, 12_345, 2_500_000, Number.NaN].map(formatValue)).toEqual([
      '0',
      '0.0042',
      '0.123',
      '1.23',
      '12.3',
      '123',
      '12.3k',
      '2.5M',
      'n/a',
    ]);
  });
});

describe('barChart', () => {
  it('draws a bar per value, marks a missing one, and escapes text', () => {
    const svg = barChart({
      title: 'A <title>',
      unit: 'ms',
      groups: ['1k', '10k'],
      series,
      values: [
        [1, 2],
        [3, Number.NaN],
      ],
    });
    expect(svg.match(/<rect x=/g)).toHaveLength(3 + series.length); // bars + legend keys
    expect(svg).toContain('>n/a<');
    expect(svg).toContain('A &lt;title&gt;');
    expect(svg).toContain('theirs &amp; co');
    expect(svg).not.toMatch(/NaN|undefined/);
    expect(
      barChart({
        title: 't',
        unit: 'ms',
        groups: ['a'],
        series,
        values: [[1, Number.NaN]],
        markMissing: false,
      }),
    ).not.toContain('n/a');
  });

  it('puts the larger value higher, on a linear and on a log scale', () => {
    for (const log of [false, true]) {
      const svg = barChart({ title: 't', unit: 'ms', groups: ['a'], series, values: [[10, 1000]], log });
      const heights = [
        ...svg.matchAll(/<rect x="[^"]+" y="[^"]+" width="[^"]+" height="([^"]+)" fill="#/g),
      ].map((match) => Number(match[1]));
      expect(heights[1]).toBeGreaterThan(heights[0]!);
    }
  });

  it('writes a second line for a category with a newline', () => {
    const svg = barChart({ title: 't', unit: 'ms', groups: ['mastra\ncatalog'], series, values: [[1, 2]] });
    expect(svg).toMatch(/<tspan[^>]*>mastra<\/tspan><tspan[^>]*dy="13">catalog<\/tspan>/);
  });
});

describe('lineChart', () => {
  it('joins the points of a series and skips a missing one', () => {
    const svg = lineChart({
      title: 't',
      unit: 'ms',
      x: ['1k', '10k', '100k'],
      series,
      values: [
        [0.1, 0.2, 0.5],
        [1, 10, Number.NaN],
      ],
      log: true,
    });
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/<circle/g)).toHaveLength(5);
  });
});
