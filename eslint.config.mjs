// eslint on Scribe's own source: typescript-eslint's type-checked recommended rules (.ci/run: `npx eslint src`).
// The bench's eslint (bench/eslint.config.mjs) lints Playwright specs and is run with its own config.
import tseslint from 'typescript-eslint';

export default tseslint.config({
  files: ['src/**/*.ts'],
  extends: [tseslint.configs.recommendedTypeChecked],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: {
    // Leaving a key out of a copy by destructuring it (`const { secret: _secret, ...rest } = record`) is the idiom.
    '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    // An async function that throws rejects; made synchronous to please this rule it would throw at the call instead.
    '@typescript-eslint/require-await': 'off',
    // An abort passes on the signal's reason, whatever the aborting caller gave (AbortSignal's own contract).
    '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true }],
    // A variable a closure reads before its one assignment (validator.ts: the native checker's answer) cannot be const.
    'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
  },
});
