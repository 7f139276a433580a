// ESLint runs two checks only (biome is the linter for everything else), `pnpm lint:regexp`:
// regular expressions in package sources that can backtrack in super-linear time, and Node
// built-ins in the packages that run on every runtime.
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
];
