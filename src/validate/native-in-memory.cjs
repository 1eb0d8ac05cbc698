// What both drivers of TypeScript 7's API share (type-checker-native.ts and its thread, native-check-thread.cjs):
// a plain script, so that the thread, which Node starts without Scribe's TypeScript, can require it too.
'use strict';
const path = require('node:path');

/** A tsconfig.json and spec texts served from memory (`configText` and `texts` read when asked); everything else read from disk. */
function inMemory(configFile, configText, texts) {
  const held = (p) => p === configFile || texts().has(p);
  return {
    readFile: (p) => (p === configFile ? configText() : texts().get(p)),
    fileExists: (p) => (held(p) ? true : undefined),
    directoryExists: (p) => ([configFile, ...texts().keys()].some((f) => f.startsWith(`${p}${path.sep}`)) ? true : undefined),
  };
}

/** The program of a snapshot's project, or the error that says the compiler did not load the batch. */
function loaded(program) {
  if (!program) throw new Error('the native type checker did not load the batch');
  return program;
}

module.exports = { inMemory, loaded };
