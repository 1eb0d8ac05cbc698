// The native type checker's own thread (type-checker-native.ts). It holds TypeScript 7's synchronous API, whose
// requests block their thread until the compiler answers: here that is this thread, so the caller's is blocked
// only while it waits for an answer it needs, and readying the compiler (its libraries and Playwright's types
// loaded, hundreds of milliseconds) overlaps the caller's own work, such as asking the model.
//
// The caller (checker-thread.ts) posts { type: 'check', id, configText, texts, files } and, when it needs the
// answer, waits for { id, diagnostics } or { id, error } (check-thread-port.cjs). { type: 'close' } stops the
// compiler's process; the thread ends once that process has exited, so that no child is left unreaped. The
// compiler's pid goes to the caller as { type: 'compiler started', pid }.
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const path = require('node:path');
const { answering } = require('./check-thread-port.cjs');
const { inMemory, loaded } = require('./native-in-memory.cjs');

const { port, signal, configFile } = workerData;
const answer = answering(port, signal);

let api;
let configText = '{}';
let texts = new Map();

/** A diagnostic as plain data, what crosses to the caller's thread. */
function plain(d) {
  return { fileName: d.fileName, pos: d.pos, code: d.code, category: d.category, text: d.text, ...(d.messageChain ? { messageChain: d.messageChain.map(plain) } : {}) };
}

/** The whole program's diagnostics: one request answers far sooner than one per file (the caller keeps the batch's). */
function check(batch) {
  const previous = [...texts.keys()];
  configText = batch.configText;
  texts = new Map(batch.texts);
  const first = api === undefined;
  if (first) {
    const { API } = require('typescript-native/unstable/sync');
    api = new API({ cwd: path.dirname(configFile), fs: inMemory(configFile, () => configText, () => texts) });
    // The caller kills it if its process exits first: cut off while it waits for a file from this thread, the
    // compiler panics and prints its Go stack traces on the terminal Scribe shares with it.
    const pid = api.client?.channel?.child?.pid;
    if (pid !== undefined) parentPort.postMessage({ type: 'compiler started', pid });
  }
  const snapshot = first ? api.updateSnapshot({ openProjects: [configFile] }) : api.updateSnapshot({ fileChanges: { changed: [...new Set([configFile, ...previous, ...batch.files])] } });
  try {
    return loaded(snapshot.getProject(configFile)?.program).getSemanticDiagnostics().map(plain);
  } finally {
    snapshot.dispose();
  }
}

/** Stops the compiler's process (the API's child: its unstable internals); the thread ends once it has exited. */
function close() {
  const child = api?.client?.channel?.child;
  api?.close();
  api = undefined;
  parentPort.close();
  if (child && child.exitCode === null && child.signalCode === null) child.ref();
}

parentPort.on('message', (message) => {
  if (message.type === 'close') return close();
  try {
    answer({ id: message.id, diagnostics: check(message) });
  } catch (error) {
    answer({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
