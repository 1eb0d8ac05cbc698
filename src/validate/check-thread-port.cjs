// The thread side of a type checker's thread (checker-thread.ts): each answer goes out on `port` and is
// counted in signal[0], which wakes a caller waiting for it; signal[1] is set when the thread ends, so a
// caller waiting learns that no answer will come. Plain CommonJS: the native checker's thread is a plain script.
'use strict';

const ANSWERS = 0;
const ENDED = 1;

/** The function a checker's thread answers with, once it has hooked the thread's end. */
function answering(port, signal) {
  process.on('exit', () => {
    Atomics.store(signal, ENDED, 1);
    Atomics.notify(signal, ANSWERS);
  });
  return (message) => {
    port.postMessage(message);
    Atomics.add(signal, ANSWERS, 1);
    Atomics.notify(signal, ANSWERS);
  };
}

module.exports = { answering };
