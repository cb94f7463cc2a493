// test/support/eventually.ts — asynchronous work (fan-out through the queue, jobs handing on to
// themselves) is checked by polling: run `check` until it passes, or rethrow its last failure.
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 30_000, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
