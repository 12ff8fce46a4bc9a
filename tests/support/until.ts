/**
 * Reads until `done` says the value is there (every 100 ms, for at most 30 s): the wait for a step
 * another process takes (a block mined, a deposit credited, a notice written). Times out naming
 * `what` and the last value read.
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  const end = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
