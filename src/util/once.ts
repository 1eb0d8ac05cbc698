/** Small helpers for work that may throw or should run once. */

/** The work's value, or the error it threw (a non-Error thrown is wrapped in one). */
export function attempt<T>(work: () => T): T | Error {
  try {
    return work();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** A function that computes the value on its first call and returns the same value after. */
export function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}
