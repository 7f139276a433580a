import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  capMarkRuns,
  forEachWord,
  hashWord,
  MAX_MARKS_IN_A_ROW,
  normalizeText,
  splitIdentifier,
  tokenize,
  tokenizeUnicode,
} from './tokenizer';

describe('tokenize', () => {
  it('reads no word out of the variation selector of an emoji, nor glues it to the next word', () => {
    expect(tokenize('☀️ weather ⚡️Fast ⭐️ 5️⃣ café')).toEqual(['weather', 'fast', '5', 'cafe']);
    expect(tokenize('✅️')).toEqual([]);
  });

  it('splits identifiers in every common style', () => {
    expect(tokenize('getWeatherForecast')).toEqual(['get', 'weather', 'forecast']);
    expect(tokenize('list_github_prs')).toEqual(['list', 'github', 'prs']);
    expect(tokenize('list-github-prs')).toEqual(['list', 'github', 'prs']);
    expect(tokenize('math.factorial')).toEqual(['math', 'factorial']);
    expect(tokenize('HTTPServerError')).toEqual(['http', 'server', 'error']);
    expect(tokenize('base64Encode v2')).toEqual(['base', '64', 'encode', 'v', '2']);
    expect(tokenize('theclique__transfermarkt_search')).toEqual(['theclique', 'transfermarkt', 'search']);
  });

  it('reads prose: lowercase, punctuation and possessives dropped', () => {
    expect(tokenize("Can you find Messi's clubs? (2023)")).toEqual([
      'can',
      'you',
      'find',
      'messi',
      'clubs',
      '2023',
    ]);
  });

  it('folds accents and compatibility forms', () => {
    expect(tokenize('Café Crème brûlée')).toEqual(['cafe', 'creme', 'brulee']);
    expect(tokenize('ＡＢＣ ﬁle')).toEqual(['abc', 'file']);
    expect(tokenize('Cafe\u0301Bar')).toEqual(['cafe', 'bar']);
    expect(tokenize('pronóstico del tiempo')).toEqual(['pronostico', 'del', 'tiempo']);
  });

  it('reads a word the same with or without invisible format characters inside it', () => {
    // Soft hyphens, zero-width spaces and joiners, word joiners and BOMs come with text copied
    // from web pages and documents; they are invisible, and must not split a word in two.
    expect(tokenize('e\u00admail')).toEqual(['email']);
    expect(tokenize('wea\u200bther fore\u2060cast')).toEqual(['weather', 'forecast']);
    expect(tokenize('\ufeffsend\u200d mail\u200c')).toEqual(['send', 'mail']);
    // Persian writes a zero-width non-joiner inside words; people often leave it out.
    expect(tokenize('می\u200cخواهم')).toEqual(tokenize('میخواهم'));
    // A Hangul filler is an invisible letter: no word of its own.
    expect(tokenize('\u3164 weather')).toEqual(['weather']);
  });

  it('reads a word the same in any case: Turkish dotless i, sharp s, final sigma', () => {
    expect(tokenize('IŞIK')).toEqual(tokenize('ışık'));
    expect(tokenize('İSTANBUL ışık')).toEqual(['istanbul', 'isik']);
    expect(tokenize('STRASSE Straße STRAẞE')).toEqual(['strasse', 'strasse', 'strasse']);
    expect(tokenize('ΚΑΙΡΟΣ')).toEqual(tokenize('καιροσ'));
  });

  it('folds the Latin letters that have no decomposition as it folds accents', () => {
    expect(tokenize('Łódź Wrocław')).toEqual(['lodz', 'wroclaw']);
    expect(tokenize('København Tromsø')).toEqual(['kobenhavn', 'tromso']);
    expect(tokenize('Đà Nẵng')).toEqual(['da', 'nang']);
    expect(tokenize('Æsir œuvre þing')).toEqual(['aesir', 'oeuvre', 'thing']);
  });

  it('reads Arabic and Hebrew words the same with or without their vowel marks', () => {
    expect(tokenize('الطَّقْس')).toEqual(tokenize('الطقس'));
    expect(tokenize('الطــقس')).toEqual(tokenize('الطقس')); // tatweel (kashida) stretches a word
    expect(tokenize('أحمد إلى آخر')).toEqual(tokenize('احمد الى اخر'));
    expect(tokenize('מֶזֶג אֲוִויר')).toEqual(tokenize('מזג אוויר'));
  });

  it('splits Chinese and Japanese into characters and bigrams', () => {
    expect(tokenize('天气预报')).toEqual(['天', '天气', '气', '气预', '预', '预报', '报']);
    expect(tokenize('查询天气 weather')).toEqual(['查', '查询', '询', '询天', '天', '天气', '气', 'weather']);
    expect(tokenize('東京の天気')).toContain('天気');
  });

  it('keeps Korean words whole and adds their bigrams', () => {
    expect(tokenize('날씨예보')).toEqual(['날씨예보', '날씨', '씨예', '예보']);
  });

  it('segments Thai with the platform word segmenter', () => {
    const tokens = tokenize('พยากรณ์อากาศ');
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.join('')).toBe('พยากรณ์อากาศ');
  });

  it('gives nothing for empty, blank or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('   \n\t')).toEqual([]);
    expect(tokenize('?!.,;:()[]{}--__')).toEqual([]);
    expect(tokenize(undefined as unknown as string)).toEqual([]);
  });

  it('handles a 100 kB text', () => {
    const text = 'find the weather forecast for Paris and convert euros. '.repeat(2000);
    expect(text.length).toBeGreaterThan(100_000);
    expect(tokenize(text).length).toBe(18_000);
  });
});

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.stringMatching(/^[A-Za-z0-9_.\- ]{0,40}$/),
);

describe('splitIdentifier', () => {
  it('splits at case and letter/digit boundaries only', () => {
    expect(splitIdentifier('listGithubPRs')).toEqual(['list', 'Github', 'P', 'Rs']);
    expect(splitIdentifier('XMLHttpRequest2')).toEqual(['XML', 'Http', 'Request', '2']);
  });

  it('splits exactly where the boundary expression does, with or without its shortcut for words with no capital or digit', () => {
    const boundary =
      /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
    const words = fc.oneof(anyText, fc.stringMatching(/^[a-zà-ÿα-ωа-я天気予報ー０-９0-9ΣσςİıǅǈⅠⅰ]{0,30}$/));
    fc.assert(
      fc.property(words, (word) => {
        expect(splitIdentifier(word)).toEqual(word.split(boundary).filter((part) => part.length > 0));
      }),
      { numRuns: 1_000 },
    );
    expect(splitIdentifier('天気予報を表示')).toEqual(['天気予報を表示']);
    expect(splitIdentifier('天気予報2日')).toEqual(['天気予報', '2', '日']);
    expect(splitIdentifier('')).toEqual([]);
  });
});

describe('tokenize (properties)', () => {
  it('never throws and yields non-empty lowercase tokens', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        for (const token of tokenize(text)) {
          expect(token.length).toBeGreaterThan(0);
          expect(token).toBe(token.toLowerCase());
          expect(token).toBe(normalizeText(token));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('normalisation is idempotent', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(normalizeText(normalizeText(text))).toBe(normalizeText(text));
      }),
      { numRuns: 500 },
    );
  });

  it('re-tokenising the tokens of alphabetic text gives them back', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-zÀ-ÿ0-9_.\- ]{0,40}$/), (text) => {
        const tokens = tokenize(text);
        expect(tokenize(tokens.join(' '))).toEqual(tokens);
      }),
      { numRuns: 500 },
    );
  });

  it('the ASCII fast path agrees with the general path', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary-ascii', maxLength: 60 }),
          fc.stringMatching(/^[A-Za-z0-9_'. -]{0,40}$/),
        ),
        (text) => {
          expect(tokenize(text)).toEqual(tokenizeUnicode(text));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('forEachWord', () => {
  const wordsOf = (text: string): { word: string; hash: number }[] => {
    const words: { word: string; hash: number }[] = [];
    forEachWord(text, {
      word(source, start, end, hash) {
        words.push({ word: source.slice(start, end).toLowerCase(), hash });
      },
    });
    return words;
  };

  it('hands over the words of tokenize with their hashes, for ASCII and any other text', () => {
    for (const text of ["getWeatherForecast for Messi's city", 'café météo ☔ 天気予報', '', '   ']) {
      const words = wordsOf(text);
      expect(words.map((entry) => entry.word)).toEqual(tokenize(text));
      for (const entry of words) expect(entry.hash).toBe(hashWord(entry.word));
    }
    expect(wordsOf(42 as never)).toEqual([]);
  });
});

describe('capMarkRuns', () => {
  it('keeps text whose runs of combining marks are at most 30 long', () => {
    for (const text of ['café', 'ệ', 'नमस्ते', 'ﾊﾞ', `a${'\u0301'.repeat(MAX_MARKS_IN_A_ROW)}`]) {
      expect(capMarkRuns(text)).toBe(text);
    }
  });

  it('cuts each longer run to its first 30 marks', () => {
    const marks = '\u0301\u0316'.repeat(20);
    expect(capMarkRuns(`a${marks}b${marks}`)).toBe(`a${marks.slice(0, 30)}b${marks.slice(0, 30)}`);
    expect(capMarkRuns(`x${'\uff9e'.repeat(40)}`)).toBe(`x${'\uff9e'.repeat(30)}`);
  });

  it('lets tokenize and normalizeText read 100 kB of alternating marks at once (a hang guard: they took seconds)', () => {
    const zalgo = `weather${'\u0301\u0316'.repeat(25_000)} forecast${'\u0301\u200d\u0316'.repeat(16_000)}`;
    const start = performance.now();
    expect(tokenize(zalgo)).toEqual(['weather', 'forecast']);
    expect(tokenizeUnicode(zalgo)).toEqual(['weather', 'forecast']);
    const folded = normalizeText(zalgo);
    expect(normalizeText(folded)).toBe(folded);
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});
