/**
 * Runs `work` on every item with at most `jobs` at once, calling `done` with each result in the
 * items' order as soon as it and every earlier one are finished (so a report can be written as it
 * comes, in a stable order). Stops starting new items once `signal` is aborted.
 */
export async function inOrderPool<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T, index: number) => Promise<R>,
  done: (result: R, item: T, index: number) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const results = new Map<number, R>();
  let next = 0;
  let emitted = 0;
  let emitting = Promise.resolve();
  const emit = async (): Promise<void> => {
    while (results.has(emitted)) {
      const r = results.get(emitted)!;
      results.delete(emitted);
      const i = emitted++;
      await done(r, items[i]!, i);
    }
  };
  const worker = async (): Promise<void> => {
    while (next < items.length && signal?.aborted !== true) {
      const i = next++;
      results.set(i, await work(items[i]!, i));
      emitting = emitting.then(emit);
      await emitting;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  await emitting;
}
