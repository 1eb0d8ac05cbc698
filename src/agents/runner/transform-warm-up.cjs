// Babel's first transform in a process compiles much of Babel: about 0.1 CPU s beside loading it, which a
// contained run's spec would otherwise pay after it is given. contained-cli.cjs runs one here, on a few lines,
// while the run waits for its spec; the output is dropped, and Playwright's transform cache never sees it.
'use strict';

/** What a spec's transform meets first: an import, types, a test with an arrow function, awaits and a template. */
const WARM_UP_SPEC = "import { test, expect } from '@playwright/test';\nconst title: string = `t${1}`;\ntest(title, async ({ page }) => {\n  await page.goto('/');\n  await expect(page.getByTestId('x')).toHaveText(/y/);\n});\n";

/**
 * babelTransform's arguments after the code and file name (a CommonJS TypeScript file, no plugins), by its
 * parameter list in the Playwright releases read (1.60 and 1.61, 1.64, 1.65; older ones are minified).
 */
const WARM_UP_ARGUMENTS = new Map([
  ['code, filename, isModule, pluginsPrologue, pluginsEpilogue, jsxImportSource', [false, [], [], undefined]],
  ['code, filename, isModule, pluginsEpilogue, jsx', [false, [], undefined]],
  ['code, filename, isModule, pluginsEpilogue, useDefineForClassFields, jsx', [false, [], true, undefined]],
]);

/**
 * Runs Playwright's babelTransform once, as for a spec in `folder`, where its parameters are ones read: the
 * code it made. Otherwise it is not called (undefined).
 */
function warmUpTransform(babelTransform, folder) {
  const parameters = /^function\s*[\w$]*\s*\(([^)]*)\)/.exec(String(babelTransform))?.[1].replace(/\s+/g, ' ').trim();
  const rest = WARM_UP_ARGUMENTS.get(parameters);
  if (!rest) return undefined;
  // As Playwright's transform sets it before its first transform: Browserslist's age warning stays quiet.
  process.env.BROWSERSLIST_IGNORE_OLD_DATA = 'true';
  return babelTransform(WARM_UP_SPEC, `${folder}/warm-up.spec.ts`, ...rest)?.code;
}

module.exports = { warmUpTransform };
