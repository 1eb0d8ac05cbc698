/** Waiting for work with a bound: shutting down servers, workers and deliveries that may not end on their own. */

/** Waits for every promise to settle, or for `ms`, whichever comes first. */
export async function settleWithin(promises: ReadonlyArray<Promise<unknown>>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([Promise.allSettled(promises), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
