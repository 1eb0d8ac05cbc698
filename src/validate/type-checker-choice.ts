/** Which compiler type-checks: `auto` takes TypeScript 7's native one where it is installed (see type-checker-native.ts). */
export const TYPE_CHECKER_CHOICES = ['auto', 'native', 'javascript'] as const;
export type TypeCheckerChoice = (typeof TYPE_CHECKER_CHOICES)[number];
