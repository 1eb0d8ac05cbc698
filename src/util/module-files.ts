/** The file a relative import names, found as TypeScript and Node find it. */
import { statSync } from 'node:fs';
import path from 'node:path';

const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** A script's name: TypeScript or JavaScript, any module flavour. */
export const SCRIPT_FILE = /\.[cm]?[jt]sx?$/;

/**
 * The script file a relative import (`./pages/cart`, `../shared/api.js`) names from `fromDir`: the path as
 * written, with a script extension (`./x.js` may be `x.ts`), or its folder's index; undefined for a package's
 * name or a file that is not there.
 */
export function relativeModuleFile(fromDir: string, specifier: string): string | undefined {
  if (specifier !== '.' && specifier !== '..' && !specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = path.resolve(fromDir, specifier);
  const withoutScript = base.replace(/\.[cm]?js$/, '');
  const candidates = [base, ...SCRIPT_EXTENSIONS.map((ext) => `${withoutScript}${ext}`), ...SCRIPT_EXTENSIONS.map((ext) => path.join(base, `index${ext}`))];
  return candidates.find((candidate) => SCRIPT_FILE.test(candidate) && isFile(candidate));
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
