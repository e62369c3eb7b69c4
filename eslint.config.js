// Type-aware linting. no-floating-promises matters most: an un-awaited promise in the worker is a
// lost error or a delivery that silently never finishes.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      '.data/',
      'lib/generated/',
      'test-results/',
      'playwright-report/',
      'next-env.d.ts',
      '.notes/',
      'bench/results/',
      'dist/',
      '.dist-*/',
    ],
  },
  {
    ignores: [
      'node_modules/',
      '.next/',
      '.data/',
      'lib/generated/',
      'test-results/',
      'playwright-report/',
      'next-env.d.ts',
      '.notes/',
      'bench/results/',
      'examples/typed-client/hookline-api.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The worker is a plain Node process: it shares lib/ with the web app, never the web app itself
    // (issue 15's layering; a slip here would pull Next.js or React into every worker).
    files: ['worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '@/app/**', '**/components/**', '@/components/**'],
              message: 'worker/ must not import the dashboard (app/, components/).',
            },
            {
              group: ['next', 'next/*', 'react', 'react/*', 'react-dom', 'react-dom/*'],
              message: 'worker/ must not import Next.js or React.',
            },
            {
              group: ['**/lib/queries/**', '**/lib/api-client*'],
              message: 'worker/ must not import browser code (lib/queries, lib/api-client).',
            },
          ],
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
