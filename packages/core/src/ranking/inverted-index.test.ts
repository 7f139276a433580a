import { describe, expect, it } from 'vitest';
import { createInvertedIndexBuilder } from './inverted-index';

function build(documents: readonly (readonly string[])[][]) {
  const builder = createInvertedIndexBuilder(
    [
      { weight: 3, b: 0 },
      { weight: 1, b: 0.75 },
    ],
    1.2,
  );
  for (const fields of documents) {
    builder.addDocument();
    fields.forEach((words, field) => {
      for (const word of words) builder.add(field, builder.term(word));
    });
  }
  return builder.build();
}

const postings = (index: ReturnType<typeof build>, term: string) => {
  const id = index.termIds.get(term)!;
  const out: [number, number][] = [];
  for (let position = index.offsets[id]!; position < index.offsets[id + 1]!; position++) {
    out.push([index.documents[position]!, index.weights[position]!]);
  }
  return out;
};

describe('createInvertedIndexBuilder', () => {
  const index = build([
    [['weather'], ['current', 'weather', 'city']],
    [['forecast'], ['weather', 'forecast', 'for', 'many', 'days', 'ahead']],
    [['time'], []],
  ]);

  it('lists each term once per document, in document order', () => {
    expect(index.size).toBe(3);
    expect(postings(index, 'weather').map(([document]) => document)).toEqual([0, 1]);
    expect(postings(index, 'time').map(([document]) => document)).toEqual([2]);
  });

  it('combines fields BM25F-style: name hits weigh more, weights saturate below 1', () => {
    const [inName, inDescription] = postings(index, 'weather');
    expect(inName![1]).toBeGreaterThan(inDescription![1]);
    for (const term of index.terms)
      for (const [, weight] of postings(index, term)) expect(weight).toBeGreaterThan(0);
    for (const term of index.terms)
      for (const [, weight] of postings(index, term)) expect(weight).toBeLessThan(1);
    // weather: name (3) + description (1 normalised by a short length) → tf / (1.2 + tf).
    const descriptionLength = 3 / ((3 + 6 + 0) / 3);
    const tf = 3 + 1 / (1 - 0.75 + 0.75 * descriptionLength);
    expect(inName![1]).toBeCloseTo(tf / (1.2 + tf), 5);
  });

  it('gives rarer terms a higher idf', () => {
    const idf = (term: string) => index.idf[index.termIds.get(term)!]!;
    expect(idf('time')).toBeGreaterThan(idf('weather'));
    expect(idf('weather')).toBeCloseTo(Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)), 10);
  });

  it('builds an empty index', () => {
    const empty = build([]);
    expect(empty.size).toBe(0);
    expect(empty.terms).toEqual([]);
  });
});
