// ESLint runs three checks only (biome is the linter for everything else), all by `pnpm lint:regexp`:
// - regular expressions in package sources that can backtrack in super-linear time;
// - no Node built-in in the packages that run on every runtime;
// - the size of package sources (issue 52): no function longer than 250 lines, no file longer
//   than 600, tests and fixtures aside.
import { builtinModules } from 'node:module';
import tsParser from '@typescript-eslint/parser';
import regexp from 'eslint-plugin-regexp';

const NEUTRAL_MESSAGE =
  'This package runs on Node, Bun, Deno, Workers, edge functions and browsers: no Node built-in (use web APIs or a runtime-neutral library; see packages/core/src/crypto.ts).';

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
    // The runtime-neutral packages (packages/runtime-smoke runs them on every runtime); their
    // tests run on Node only and may use Node.
    files: ['packages/{core,ai-sdk,langchain,word-vectors}/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/__fixtures__/**'],
    languageOptions: { parser: tsParser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({ name, message: NEUTRAL_MESSAGE })),
          patterns: [{ group: ['node:*'], message: NEUTRAL_MESSAGE }],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportExpression[source.value=/^node:|^(${builtinModules.join('|').replaceAll('/', '\\/')})$/]`,
          message: NEUTRAL_MESSAGE,
        },
      ],
      'no-restricted-globals': [
        'error',
        ...[
          'Buffer',
          'process',
          'global',
          'require',
          '__dirname',
          '__filename',
          'setImmediate',
          'clearImmediate',
        ].map((name) => ({ name, message: NEUTRAL_MESSAGE })),
      ],
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
