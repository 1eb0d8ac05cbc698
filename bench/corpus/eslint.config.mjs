// eslint-plugin-playwright's recommended config on TypeScript and JavaScript specs alike: the baseline
// bench/unseen-suites.mjs compares `scribe validate` with on public suites.
import playwright from 'eslint-plugin-playwright';
import tseslint from 'typescript-eslint';

const recommended = playwright.configs['flat/recommended'];

export default [
  {
    ...recommended,
    files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
    languageOptions: { ...recommended.languageOptions, parser: tseslint.parser },
  },
];
