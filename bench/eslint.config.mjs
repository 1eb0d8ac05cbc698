// eslint with eslint-plugin-playwright's recommended config, the baseline the validate bench compares against.
import playwright from 'eslint-plugin-playwright';
import tseslint from 'typescript-eslint';

const recommended = playwright.configs['flat/recommended'];

export default [
  {
    ...recommended,
    files: ['**/*.ts'],
    languageOptions: { ...recommended.languageOptions, parser: tseslint.parser },
  },
];
