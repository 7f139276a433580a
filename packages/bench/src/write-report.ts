import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildCharts } from './report/charts';
import { learningCharts, learningSection, spliceLearningSection } from './report/learning-section';
import { renderMarkdown } from './report/markdown';
import type { BenchMode, BenchResults } from './run-bench';
import type { LearningSuiteResult } from './suites/learning';

/** Where a run writes by default: docs/ for the full run only, .reports/ otherwise. */
export function defaultOutput(repoRoot: string, mode: BenchMode, setName?: string): string {
  if (mode === 'full') return path.join(repoRoot, 'docs', 'benchmarks.md');
  if (mode === 'quick') return path.join(repoRoot, '.reports', 'benchmarks-quick.md');
  return path.join(repoRoot, '.reports', `benchmarks-${setName ?? 'catalog'}.md`);
}

/**
 * Writes the markdown report and its charts (in a folder named after the report, beside it),
 * and optionally every figure as JSON. Returns the paths written.
 */
export async function writeReport(
  results: BenchResults,
  options: { markdown: string; json?: string },
): Promise<string[]> {
  const markdown = path.resolve(options.markdown);
  const chartFolder = markdown.replace(/\.md$/, '');
  const charts = buildCharts(results);
  await mkdir(path.dirname(markdown), { recursive: true });
  if (charts.length > 0) await mkdir(chartFolder, { recursive: true });
  const written: string[] = [];
  for (const chart of charts) {
    const file = path.join(chartFolder, chart.file);
    await writeFile(file, chart.svg);
    written.push(file);
  }
  await writeFile(markdown, renderMarkdown(results, charts, path.basename(chartFolder)));
  written.unshift(markdown);
  if (options.json) {
    const json = path.resolve(options.json);
    await mkdir(path.dirname(json), { recursive: true });
    await writeFile(json, JSON.stringify(results, null, 2));
    written.push(json);
  }
  return written;
}

/**
 * Writes the learning suite's section into the report at `markdown` (replacing its earlier one,
 * and leaving every other section as it was) and its chart into the report's chart folder.
 * Returns the paths written.
 */
export async function writeLearningReport(
  result: LearningSuiteResult,
  options: { markdown: string },
): Promise<string[]> {
  const markdown = path.resolve(options.markdown);
  const chartFolder = markdown.replace(/\.md$/, '');
  const charts = learningCharts(result);
  await mkdir(chartFolder, { recursive: true });
  const written = [markdown];
  for (const chart of charts) {
    const file = path.join(chartFolder, chart.file);
    await writeFile(file, chart.svg);
    written.push(file);
  }
  const existing = await readFile(markdown, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '# Benchmarks\n';
    throw error;
  });
  const section = learningSection(
    result,
    new Map(charts.map((chart) => [chart.file, chart])),
    path.basename(chartFolder),
  );
  await writeFile(markdown, spliceLearningSection(existing, section.join('\n').replace(/\n{3,}/g, '\n\n')));
  return written;
}
