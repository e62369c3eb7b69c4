// Type-aware linting. no-floating-promises matters most: an un-awaited promise in the worker is a
// lost error or a delivery that silently never finishes.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersRule } from './scripts/architecture/eslint-rule.mjs';

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
    // Each layer imports only what scripts/architecture/layers.mjs allows it (the domain no HTTP or
    // browser code, the worker no Next.js, React or dashboard, …); `npm run architecture` prints the map.
    plugins: { hookline: { rules: { layers: layersRule } } },
    rules: { 'hookline/layers': 'error' },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
