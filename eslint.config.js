// Lint, and the layering rules of docs/architecture.md: each runtime folder may import only what
// its runtime has. A rule here, not a habit, is what keeps the layers apart.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Relative imports only: an npm package such as @trpc/server is not our src/server.
const ours = (...folders) => folders.map((f) => ({ regex: `^\\.{1,2}/(?:.*/)?${f}(?:/|$)`, message: `this layer may not import from src/${f}` }));
const electron = { name: 'electron', message: 'only src/main/electron and src/preload may import electron' };

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', '.data/', 'coverage/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='only']", message: 'a focused test silences the rest of the suite' }],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electron],
        patterns: [...ours('server', 'main', 'renderer', 'preload'), { group: ['node:*'], message: 'src/shared runs in every process: no Node APIs' }],
      }],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [electron], patterns: ours('main', 'renderer', 'preload') }] },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/electron/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [electron], patterns: ours('renderer', 'preload') }] },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electron],
        patterns: [...ours('server', 'preload'), { regex: '^\\.{1,2}/(?:.*/)?main(?:/|$)', allowTypeImports: true, message: 'the renderer only type-imports from main' }],
      }],
    },
  },
);
