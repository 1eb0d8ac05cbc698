/** Every built-in rule. critic.yaml decides which run, with what severity and options. */
import type { Rule } from './types.ts';
import noNthMethods from './no-nth-methods.ts';
import noGeneratedCssClass from './no-generated-css-class.ts';
import requireTestidSelectors from './require-testid-selectors.ts';
import noUnknownTestid from './no-unknown-testid.ts';
import noWaitForTimeout from './no-wait-for-timeout.ts';
import noUndeclaredEnv from './no-undeclared-env.ts';
import noHardcodedCredentials from './no-hardcoded-credentials.ts';
import noHardcodedBaseUrl from './no-hardcoded-base-url.ts';
import expectExpect from './expect-expect.ts';
import requireScreenshot from './require-screenshot.ts';
import maxSteps from './max-steps.ts';
import maxDuration from './max-duration.ts';
import missingPlaywrightAwait from './missing-playwright-await.ts';
import noForceOption from './no-force-option.ts';
import noNetworkidle from './no-networkidle.ts';
import noPagePause from './no-page-pause.ts';
import noFocusedTest from './no-focused-test.ts';
import noSkippedTest from './no-skipped-test.ts';
import noElementHandle from './no-element-handle.ts';
import noEval from './no-eval.ts';
import preferWebFirstAssertions from './prefer-web-first-assertions.ts';
import noVagueAssertions from './no-vague-assertions.ts';
import noConditionalInTest from './no-conditional-in-test.ts';
import noWaitForNavigation from './no-wait-for-navigation.ts';
import noForbiddenImports from './no-forbidden-imports.ts';
import noDangerousApis from './no-dangerous-apis.ts';
import allowedCode from './allowed-code.ts';
import allowedPaths from './allowed-paths.ts';
import noChanceDecisions from './no-chance-decisions.ts';
import noPageStateScripts from './no-page-state-scripts.ts';
import syntax from './syntax.ts';
import typeCheck from './type-check.ts';

// Each rule has its own options type; the list holds them all, and each is called with options its own schema parsed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const RULES: ReadonlyArray<Rule<any>> = [
  noNthMethods,
  noGeneratedCssClass,
  requireTestidSelectors,
  noUnknownTestid,
  noWaitForTimeout,
  noHardcodedCredentials,
  noUndeclaredEnv,
  noHardcodedBaseUrl,
  expectExpect,
  requireScreenshot,
  maxSteps,
  maxDuration,
  missingPlaywrightAwait,
  noForceOption,
  noNetworkidle,
  noPagePause,
  noFocusedTest,
  noSkippedTest,
  noElementHandle,
  noEval,
  preferWebFirstAssertions,
  noVagueAssertions,
  noConditionalInTest,
  noWaitForNavigation,
  noForbiddenImports,
  noDangerousApis,
  allowedCode,
  allowedPaths,
  noChanceDecisions,
  noPageStateScripts,
  syntax,
  typeCheck,
];
