import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How long a periodic job may run synchronously before it lets the event loop turn: below the
 * 2 ms a placement can afford to wait behind housekeeping, with room for the slice that follows.
 */
export const JOB_SLICE_MS = 1;

export interface LoopSlicer {
  /** True once the current slice has run `sliceMs`: the caller should `await yield()`. */
  due(): boolean;
  /** Lets the event loop turn (timers, sockets, placements) and starts a new slice. */
  yield(): Promise<void>;
}

/**
 * Cuts a long synchronous loop into slices of about `sliceMs`: `if (slicer.due()) await
 * slicer.yield()` between items. A loop over a large batch (receipts to sign, ticks to publish)
 * then holds the loop for one slice at a time instead of for the whole batch, at the price of a
 * `setImmediate` per slice, not per item.
 */
export function createLoopSlicer(sliceMs: number = JOB_SLICE_MS): LoopSlicer {
  let sliceStartMs = performance.now();
  return {
    due: () => performance.now() - sliceStartMs >= sliceMs,
    async yield() {
      await nextTurn();
      sliceStartMs = performance.now();
    },
  };
}
