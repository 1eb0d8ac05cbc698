/**
 * The layering of src/: every import between its parts is one test/architecture/layers.ts allows, and no
 * parts import each other around a loop. CI runs this before the rest of the suite, so a new arrow
 * running back up fails the build early, with the file and the import that drew it.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileCycles, findCycles, importCycles, importsOf, layeringViolations, moduleFiles, partOf, readImports } from './import-graph.ts';
import { LAYERS } from './layers.ts';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

describe('the layering of src/', () => {
  const imports = readImports(src);

  it('allows every import between its parts', () => {
    expect(imports.length).toBeGreaterThan(100);
    expect(layeringViolations(imports, LAYERS)).toEqual([]);
  });

  it('has no import cycle between its parts', () => {
    expect(importCycles(imports)).toEqual([]);
  });

  it('has no import cycle between its files', () => {
    expect(fileCycles(imports)).toEqual([]);
  });

  it('is described by a table that names every part and allows no cycle', () => {
    const parts = new Set(moduleFiles(src).map(partOf));
    expect([...parts].filter((part) => !Object.hasOwn(LAYERS, part))).toEqual([]);
    expect(Object.keys(LAYERS).filter((part) => !parts.has(part))).toEqual([]);
    expect(findCycles(new Map(Object.entries(LAYERS)))).toEqual([]);
  });
});

describe('the layering check', () => {
  // A config that imports the rule registry, a rule that imports the config back (type-only, as the
  // compiler still follows it), a dynamic import inside a part, and a module that reaches into test/.
  const imports = [
    ...importsOf('config/critic.ts', "import { RULES } from '../rules/index.ts';"),
    ...importsOf('rules/no-unknown-testid.ts', "import type { CriticConfig } from '../config/critic.ts';\nconst types = await import('./types.ts');"),
    ...importsOf('workflow/demo.ts', "import { startDemoApp } from '../../test/fixtures/demo-app/server.ts';"),
  ];

  it('reads static, type-only and dynamic imports, relative to src/', () => {
    expect(imports.map((i) => i.target)).toEqual(['rules/index.ts', 'config/critic.ts', 'rules/types.ts', '../test/fixtures/demo-app/server.ts']);
  });

  it('names the file, the import and the rule of an arrow running back up, or out of src/', () => {
    expect(layeringViolations(imports, { rules: [], config: ['rules'], workflow: ['config'] })).toEqual([
      "src/rules/no-unknown-testid.ts imports '../config/critic.ts': rules may not import config (rule: rules may import nothing outside itself)",
      "src/workflow/demo.ts imports '../../test/fixtures/demo-app/server.ts': it leaves src/ (rule: src/ imports only src/ and packages)",
    ]);
    expect(layeringViolations(imports, { config: ['rules'] })[0]).toMatch(/^src\/rules\/no-unknown-testid\.ts imports '\.\.\/config\/critic\.ts': rules has no entry/);
  });

  it('finds a cycle between parts even where the table allows each arrow', () => {
    expect(layeringViolations(imports.slice(0, 2), { rules: ['config'], config: ['rules'] })).toEqual([]);
    expect(importCycles(imports)).toEqual([
      "import cycle between parts of src/: config -> rules -> config (src/config/critic.ts imports '../rules/index.ts'; src/rules/no-unknown-testid.ts imports '../config/critic.ts') (rule: no two parts import each other, directly or around a loop)",
    ]);
  });

  it('finds a cycle between two files of one part, type-only imports included', () => {
    const files = [
      ...importsOf('validate/validator.ts', "import { INTERNAL_ERROR_RULE } from './report.ts';\nimport { ts } from '../util/typescript.js';"),
      ...importsOf('validate/report.ts', "import type { FileValidation } from './validator.ts';"),
      ...importsOf('validate/cache.ts', "import { Validator } from './validator.ts';"),
    ];
    expect(importCycles(files)).toEqual([]);
    expect(fileCycles(files)).toEqual([
      "import cycle between files of src/: validate/report.ts -> validate/validator.ts -> validate/report.ts (src/validate/report.ts imports './validator.ts'; src/validate/validator.ts imports './report.ts') (rule: no two modules import each other, directly or around a loop; type-only imports count)",
    ]);
    expect(fileCycles(files.slice(1))).toEqual([]);
  });

  it('finds each tangle of parts once, with its shortest loop', () => {
    const loop = new Map([['agents', ['validate']], ['validate', ['rules']], ['rules', ['agents', 'util']], ['util', []]]);
    expect(findCycles(loop)).toEqual([{ parts: ['agents', 'rules', 'validate'], loop: ['agents', 'validate', 'rules', 'agents'] }]);
  });
});
