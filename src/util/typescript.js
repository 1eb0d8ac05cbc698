// TypeScript's compiler API: the copy ts-morph ships, so its types are ts-morph's `ts` (typescript.d.ts).
//
// Loaded with require rather than by importing ts-morph: an ES import of a CommonJS package makes Node scan
// its source for export names, and Scribe uses nothing of ts-morph but `ts`. Where Node has no compile cache
// of its own (before 22), V8's code cache is kept beside the package (code-cache.cjs): compiling the 9 MB
// compiler anew is about a tenth of a `scribe validate` run.
//
// Plain JavaScript with a declaration file, since a TypeScript module cannot export a value that is also
// the compiler's namespace of types.
import nodeModule, { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const compilerFile = require.resolve('@ts-morph/common/dist/typescript.js');

export const ts = nodeModule.enableCompileCache || require.cache[compilerFile] ? require(compilerFile) : require('./code-cache.cjs').loadWithCodeCache(compilerFile);
