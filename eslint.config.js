// ESLint runs two checks only (biome is the linter for everything else), both by `pnpm lint:regexp`:
// - regular expressions in package sources that can backtrack in super-linear time;
// - the size of package sources (issue 52): no function longer than 250 lines, no file longer
//   than 600, tests and fixtures aside.
import tsParser from '@typescript-eslint/parser';
import regexp from 'eslint-plugin-regexp';

export default [
  {
    files: ['packages/*/src/**/*.ts'],
    languageOptions: { parser: tsParser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    // Lines are counted as `wc -l` counts them (comments and blank lines too), and a function's
    // lines are its whole span, the functions nested in it included: a factory whose closures
    // run 1,000 lines is a 1,000-line function, which is what the limit is for. An immediately
    // invoked function is measured as a function of its own too.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/__fixtures__/**'],
    rules: {
      'max-lines': ['error', { max: 600, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': [
        'error',
        { max: 250, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
];
