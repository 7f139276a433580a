// Sentence-length figures for the package READMEs (issue 51's targets: median ≤ 20 words,
// fewer than one sentence in thirty over 40 words, none over 60).
// Prose only: fenced code blocks and headings are left out; table cells and list items count.
// Usage: node scripts/readme-stats.mjs [README.md ...]   (default: every packages/*/README.md)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files =
  args.length > 0
    ? args
    : readdirSync('packages')
        .map((p) => join('packages', p, 'README.md'))
        .filter((f) => existsSync(f));

/** @param {string} markdown */
function sentencesOf(markdown) {
  /** @type {string[]} */
  const out = [];
  let inFence = false;
  /** @type {string[]} */
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) out.push(...split(paragraph.join(' ')));
    paragraph = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.trimStart().startsWith('```')) {
      flush();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const t = line.trim();
    if (t === '' || t.startsWith('#') || t.startsWith('<!--')) {
      flush();
      continue;
    }
    if (t.startsWith('|')) {
      flush();
      if (/^\|[\s:|-]+\|$/.test(t)) continue;
      for (const cell of t.split('|')) if (cell.trim()) out.push(...split(cell));
      continue;
    }
    if (/^([-*]|\d+\.)\s/.test(t)) flush();
    paragraph.push(t);
  }
  flush();
  return out;
}

/** @param {string} text */
function split(text) {
  const parts = text.split(/(?<=[.!?])\s+(?=[A-Z`*(["'])/);
  return parts
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}`]/u.test(w)).length >= 3);
}

const words = (/** @type {string} */ s) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}`]/u.test(w)).length;
const all = [];
for (const f of files) {
  const s = sentencesOf(readFileSync(f, 'utf8')).map((x) => ({ f, x, n: words(x) }));
  all.push(...s);
  const ns = s.map((e) => e.n).sort((a, b) => a - b);
  const med = ns.length ? ns[Math.floor(ns.length / 2)] : 0;
  console.log(
    `${f}: ${ns.length} sentences, median ${med}, >40: ${ns.filter((n) => n > 40).length}, >60: ${ns.filter((n) => n > 60).length}, longest ${ns.at(-1) ?? 0}`,
  );
}
const ns = all.map((e) => e.n).sort((a, b) => a - b);
console.log(
  `all: ${ns.length} sentences, median ${ns[Math.floor(ns.length / 2)] ?? 0}, >40: ${ns.filter((n) => n > 40).length} (target < ${Math.ceil(ns.length / 30)}), >60: ${ns.filter((n) => n > 60).length}`,
);
if (process.argv.includes('--long'))
  for (const e of all.filter((e) => e.n > 40)) console.log(`\n[${e.f}, ${e.n}] ${e.x}`);
