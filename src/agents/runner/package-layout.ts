/**
 * The package layouts a run works in: a node_modules folder, as npm, pnpm (hoisted or not) and Yarn's
 * node-modules linker make. Yarn's Plug'n'Play keeps packages in zip archives, where a run folder cannot link
 * Playwright's real folder (nor a contained run bind it): named as the run's environment problem, with the fix,
 * rather than failing inside the run. Validating and exploring need no such folder and work there.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Why a spec in `dir` cannot run in this layout, or undefined. The nearest folder at or above it that has
 * @playwright/test in its node_modules, or a .pnp.cjs, decides: both in one folder is a node_modules layout
 * (a .pnp.cjs left behind by a linker change).
 */
export function packageLayoutProblem(dir: string): string | undefined {
  for (let folder = path.resolve(dir); ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'node_modules', '@playwright', 'test', 'package.json'))) return undefined;
    const pnp = path.join(folder, '.pnp.cjs');
    if (existsSync(pnp)) {
      return `Yarn Plug'n'Play (${pnp}) keeps Playwright in zip archives, and a run needs its installed folder: add \`nodeLinker: node-modules\` to .yarnrc.yml and run \`yarn install\``;
    }
    if (path.dirname(folder) === folder) return undefined;
  }
}
