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
  { ignores: ['node_modules/', '.next/', '.data/', 'lib/generated/', 'test-results/', 'playwright-report/', 'next-env.d.ts', '.notes/', 'bench/results/', 'examples/typed-client/hookline-api.d.ts'] },
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
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
