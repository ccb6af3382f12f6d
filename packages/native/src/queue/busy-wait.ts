/**
 * Keeping the JavaScript thread awake while a short wait for a device runs.
 * @internal
 */

/**
 * Keeps the event loop polling (a chain of `setImmediate`s, so it never blocks in the kernel) until
 * `wait` settles or `microseconds` pass. A thread that sleeps through a wait of a millisecond wakes
 * slowly and runs what follows from cold caches and a lowered clock; one that polls sees the
 * completion at once, as CUDA's own spin-then-block wait does. Other callbacks still run meanwhile.
 */
export function keepEventLoopBusy(wait: Promise<unknown>, microseconds: number): void {
  if (microseconds <= 0) return;
  let settled = false;
  const settle = () => {
    settled = true;
  };
  wait.then(settle, settle);
  const deadline = performance.now() + microseconds / 1000;
  const poll = () => {
    if (!settled && performance.now() < deadline) setImmediate(poll);
  };
  setImmediate(poll);
}
