/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), for English
 * words: `searching` → `search`, `tickets` → `ticket`, `calculation` and `calculate` →
 * `calcul`. Both the catalog and the query are stemmed with it, so the stems only have to
 * agree with each other, not be words. Words that are not plain lowercase a–z (digits, other
 * scripts) and words of one or two letters are returned unchanged.
 */

const PLAIN_WORD = /^[a-z]+$/;

function isConsonant(word: string, index: number): boolean {
  const character = word[index];
  if (character === 'a' || character === 'e' || character === 'i' || character === 'o' || character === 'u') {
    return false;
  }
  if (character === 'y') return index === 0 || !isConsonant(word, index - 1);
  return true;
}

/** m, the number of vowel–consonant sequences in `stem` ([C](VC)^m[V]). */
function measure(stem: string): number {
  let count = 0;
  let index = 0;
  const length = stem.length;
  while (index < length && isConsonant(stem, index)) index++;
  while (index < length) {
    while (index < length && !isConsonant(stem, index)) index++;
    if (index >= length) break;
    while (index < length && isConsonant(stem, index)) index++;
    count++;
  }
  return count;
}

function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index++) if (!isConsonant(stem, index)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string): boolean {
  const length = word.length;
  return length >= 2 && word[length - 1] === word[length - 2] && isConsonant(word, length - 1);
}

/** *o: the stem ends consonant–vowel–consonant, the last not w, x or y. */
function endsCvc(word: string): boolean {
  const length = word.length;
  if (length < 3) return false;
  const last = word[length - 1];
  return (
    isConsonant(word, length - 3) &&
    !isConsonant(word, length - 2) &&
    isConsonant(word, length - 1) &&
    last !== 'w' &&
    last !== 'x' &&
    last !== 'y'
  );
}

/** Replaces the first matching suffix when the remaining stem has measure > `minimum`. */
function replaceSuffix(word: string, rules: readonly (readonly [string, string])[], minimum: number): string {
  for (const [suffix, replacement] of rules) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length);
      return measure(stem) > minimum ? stem + replacement : word;
    }
  }
  return word;
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
] as const;

function step1a(word: string): string {
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ies')) return word.slice(0, -2);
  if (word.endsWith('ss')) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

function step1b(word: string): string {
  if (word.endsWith('eed')) {
    return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  }
  let stem: string | undefined;
  if (word.endsWith('ed') && hasVowel(word.slice(0, -2))) stem = word.slice(0, -2);
  else if (word.endsWith('ing') && hasVowel(word.slice(0, -3))) stem = word.slice(0, -3);
  if (stem === undefined) return word;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return stem + 'e';
  if (endsWithDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return stem + 'e';
  return stem;
}

function step1c(word: string): string {
  return word.endsWith('y') && hasVowel(word.slice(0, -1)) ? word.slice(0, -1) + 'i' : word;
}

function step4(word: string): string {
  // 'ement' before 'ment' before 'ent': the longest suffix wins.
  let best: string | undefined;
  for (const suffix of STEP4) {
    if (word.endsWith(suffix) && (best === undefined || suffix.length > best.length)) best = suffix;
  }
  if (best === undefined) return word;
  const stem = word.slice(0, word.length - best.length);
  if (measure(stem) <= 1) return word;
  if (best === 'ion' && !/[st]$/.test(stem)) return word;
  return stem;
}

function step5(word: string): string {
  let result = word;
  if (result.endsWith('e')) {
    const stem = result.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) result = stem;
  }
  if (measure(result) > 1 && endsWithDoubleConsonant(result) && result.endsWith('l'))
    result = result.slice(0, -1);
  return result;
}

/** Porter's stem of an English word (lowercase a–z); other words unchanged. */
export function stem(word: string): string {
  if (word.length <= 2 || !PLAIN_WORD.test(word)) return word;
  let result = step1c(step1b(step1a(word)));
  result = replaceSuffix(result, STEP2, 0);
  result = replaceSuffix(result, STEP3, 0);
  result = step4(result);
  return step5(result);
}

/**
 * {@link stem} with a memory of the last `size` words stemmed (it restarts when full): requests
 * repeat their words, and stemming a word took longer than remembering it.
 */
export function rememberingStem(size: number): (word: string) => string {
  const stems = new Map<string, string>();
  return (word) => {
    let found = stems.get(word);
    if (found === undefined) {
      if (stems.size >= size) stems.clear();
      found = stem(word);
      stems.set(word, found);
    }
    return found;
  };
}
