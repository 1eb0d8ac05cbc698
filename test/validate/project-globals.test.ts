import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { globalDeclarations, mayDeclareGlobals, projectGlobals } from '../../src/validate/project-globals.ts';

describe('the globals a project declares in its own sources', () => {
  it("a module's declare global blocks, as they are, without its imports or code", () => {
    const text = "import { App } from './App';\n\ndeclare global {\n  interface Window { app: App }\n}\nexport const x = 1;\nwindow.app = new App();\n";
    expect(globalDeclarations('/p/src/main.tsx', text)).toBe('export {};\ndeclare global {\n  interface Window { app: App }\n}\n');
  });

  it("a script's top-level declarations, as declaration text; a script that declares nothing, none", () => {
    const declared = globalDeclarations('/p/src/helpers.ts', 'function resetStore(name: string): void {\n  localStorage.removeItem(name);\n}\nconst LIMIT = 3;\n');
    expect(declared).toContain('declare function resetStore(name: string): void;');
    expect(declared).toContain('declare const LIMIT = 3;');
    expect(globalDeclarations('/p/src/run.ts', "describe('x', () => {\n  it('y', () => {});\n});\n")).toBeUndefined();
  });

  it('none from a module without declare global, one that only mentions it, or an .mts (always a module)', () => {
    expect(globalDeclarations('/p/a.ts', 'export const a = 1;\n')).toBeUndefined();
    expect(globalDeclarations('/p/b.ts', "// declare global { interface Window { x: 1 } }\nexport const s = 'declare global {}';\n")).toBeUndefined();
    expect(globalDeclarations('/p/c.mts', 'const local = 1;\n')).toBeUndefined();
  });

  it('reads TypeScript sources only, not declaration files (loaded whole) nor packages', () => {
    expect([
      '/p/src/main.tsx',
      '/p/src/a.ts',
      '/p/src/b.mts',
      '/p/src/env.d.ts',
      '/p/src/c.js',
      `/p/node_modules/x/index.ts`.split('/').join(path.sep),
    ].filter(mayDeclareGlobals)).toEqual(['/p/src/main.tsx', '/p/src/a.ts', '/p/src/b.mts']);
  });

  describe('from files on disk', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scribe-project-globals-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };

    it('each source that declares globals, with what it declares; a file gone since the config was read is skipped', () => {
      const sources = [
        file('main.tsx', "import './style.css';\ndeclare global {\n  interface Window { invokeOrders: string[] }\n}\n"),
        file('plain.ts', "import { a } from './a';\nexport const b = a;\n"),
        // A script that says "import" only in a comment is still read as the script it is.
        file('legacy.ts', '// import nothing: a script\nvar legacyFlag: boolean = true;\n'),
        path.join(dir, 'deleted.ts'),
      ];
      expect(projectGlobals(sources)).toEqual([
        { source: sources[0], declarations: 'export {};\ndeclare global {\n  interface Window { invokeOrders: string[] }\n}\n' },
        { source: sources[2], declarations: 'declare var legacyFlag: boolean;\n' },
      ]);
    });
  });
});
