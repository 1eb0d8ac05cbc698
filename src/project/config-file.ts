import { existsSync } from 'node:fs';
import path from 'node:path';

const CONFIG_NAMES = ['.ts', '.js', '.mts', '.mjs', '.cts', '.cjs'].map((ext) => `playwright.config${ext}`);

/** playwright.config.* of the folder, as `npx playwright test` would pick it; undefined when there is none. */
export function findPlaywrightConfig(dir: string): string | undefined {
  return CONFIG_NAMES.map((name) => path.join(dir, name)).find((file) => existsSync(file));
}

/** Inside the Playwright project's testDir, where accepted specs go unless agents/scribe.yaml names a folder. */
export const GENERATED_FOLDER = 'generated';

/** A spec as an output folder holds one (<feature>/<request>.spec.ts): asked of Playwright's matcher for placement. */
export const SAMPLE_SPEC_IN_FOLDER = path.join('feature', 'request.spec.ts');

/** Where a generated spec lands by default, under testDir: the config reader says whether each project runs it. */
export const SAMPLE_SPEC = path.join(GENERATED_FOLDER, SAMPLE_SPEC_IN_FOLDER);
