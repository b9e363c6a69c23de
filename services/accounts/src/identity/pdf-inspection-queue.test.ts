import { describe, expect, it } from 'vitest';
import { PdfChecksBusy, PdfQueueFull } from './identity.domain';
import { createPdfInspectionQueue, type PdfInspectionLimits } from './pdf-inspection-queue';

/** Inspections the test finishes by hand: `started` lists them in the order the queue started them. */
function heldWork() {
  const started: string[] = [];
  const release = new Map<string, (pages: number) => void>();
  const work = (name: string) => () =>
    new Promise<number>((resolve) => {
      started.push(name);
      release.set(name, resolve);
    });
  const finish = async (name: string, pages = 1) => {
    release.get(name)!(pages);
    // Lets the queue's bookkeeping after the answer run before the test looks again.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, work, finish };
}

const limits = (overrides: Partial<PdfInspectionLimits> = {}): PdfInspectionLimits => ({
  runningMax: 2,
  waitingMax: 8,
  perAccountMax: 2,
  ...overrides,
});

describe('the PDF inspection queue', () => {
  it('runs one inspection per account at a time, so a burst leaves a slot for another trader', async () => {
    const queue = createPdfInspectionQueue(limits());
    const { started, work, finish } = heldWork();
    const burst = [queue.run('a', work('a1')), queue.run('a', work('a2'))];
    const other = queue.run('b', work('b1'));
    // b's inspection started while both of a's are still unanswered.
    expect(started).toEqual(['a1', 'b1']);
    expect(queue.load()).toEqual({ running: 2, waiting: 1 });
    await finish('b1', 3);
    expect(await other).toBe(3);
    expect(started).toEqual(['a1', 'b1']); // a2 waits for a1, not for the free slot
    await finish('a1');
    expect(started).toEqual(['a1', 'b1', 'a2']);
    await finish('a2', 2);
    expect(await Promise.all(burst)).toEqual([1, 2]);
    expect(queue.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses an account past its bound at once (429 with Retry-After) and runs nothing for it', async () => {
    const queue = createPdfInspectionQueue(limits());
    const { started, work, finish } = heldWork();
    const admitted = [queue.run('a', work('a1')), queue.run('a', work('a2'))];
    const refusals = await Promise.allSettled([3, 4, 5].map((n) => queue.run('a', work(`a${n}`))));
    for (const refusal of refusals) {
      expect(refusal.status).toBe('rejected');
      const error = (refusal as PromiseRejectedResult).reason as PdfChecksBusy;
      expect(error).toBeInstanceOf(PdfChecksBusy);
      expect(error).toMatchObject({
        code: 'RATE_LIMITED',
        message: 'Your last 2 PDFs are still being checked; send this one again in 2 s',
      });
      expect(error.retryAfterSec).toBe(2);
    }
    expect(started).toEqual(['a1']);
    expect(queue.load()).toEqual({ running: 1, waiting: 1 });
    // Another trader is unaffected by a's refusals.
    const other = queue.run('b', work('b1'));
    expect(started).toEqual(['a1', 'b1']);
    await finish('a1');
    // One of a's finished: a is under its bound again.
    const again = queue.run('a', work('a6'));
    await finish('b1');
    await finish('a2');
    await finish('a6');
    expect(await Promise.all([...admitted, other, again])).toEqual([1, 1, 1, 1]);
  });

  it('refuses with 503 once every waiting place is taken, but still starts an idle account in a free slot', async () => {
    const queue = createPdfInspectionQueue(limits({ waitingMax: 1 }));
    const { started, work, finish } = heldWork();
    const a = [queue.run('a', work('a1')), queue.run('a', work('a2'))];
    expect(queue.load()).toEqual({ running: 1, waiting: 1 });
    // The waiting place is a2's, but a slot is free and b runs nothing: b starts at once.
    const b = queue.run('b', work('b1'));
    expect(started).toEqual(['a1', 'b1']);
    const full = queue.run('c', work('c1'));
    await expect(full).rejects.toBeInstanceOf(PdfQueueFull);
    await expect(full).rejects.toMatchObject({
      code: 'INSPECTION_QUEUE_FULL',
      message: 'Too many documents are being checked right now; try again in 2 s',
      retryAfterSec: 2,
    });
    expect(started).toEqual(['a1', 'b1']);
    await finish('a1');
    await finish('a2');
    await finish('b1');
    expect(await Promise.all([...a, b])).toEqual([1, 1, 1]);
  });

  it('gives a freed slot to the earliest waiting account that runs nothing, before an older second file', async () => {
    const queue = createPdfInspectionQueue(limits());
    const { started, work, finish } = heldWork();
    const answers = [
      queue.run('a', work('a1')),
      queue.run('b', work('b1')),
      queue.run('a', work('a2')),
      queue.run('c', work('c1')),
    ];
    expect(started).toEqual(['a1', 'b1']);
    await finish('b1');
    // a2 waited longer, but a still runs a1: c's first file goes first.
    expect(started).toEqual(['a1', 'b1', 'c1']);
    await finish('a1');
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2']);
    await finish('c1');
    await finish('a2');
    expect(await Promise.all(answers)).toEqual([1, 1, 1, 1]);
  });

  it('answers a failed inspection with its error and frees its slot', async () => {
    const queue = createPdfInspectionQueue(limits({ runningMax: 1, perAccountMax: 1 }));
    const failing = queue.run('a', () => Promise.reject(new Error('worker died')));
    await expect(failing).rejects.toThrow('worker died');
    expect(queue.load()).toEqual({ running: 0, waiting: 0 });
    expect(await queue.run('a', async () => 4)).toBe(4);
  });

  it('states a Retry-After that follows how long inspections have been taking', async () => {
    let nowMs = 0;
    const queue = createPdfInspectionQueue(limits({ perAccountMax: 1 }), () => nowMs);
    const { work, finish } = heldWork();
    const slow = queue.run('a', work('a1'));
    nowMs += 12_000;
    await finish('a1');
    await slow;
    // From the assumed 2 s, one 12 s inspection moves the estimate a fifth of the way: 4 s.
    const held = queue.run('a', work('a2'));
    await expect(queue.run('a', work('a3'))).rejects.toMatchObject({ retryAfterSec: 4 });
    await finish('a2');
    await held;
  });

  it('refuses bounds that make no sense', () => {
    expect(() => createPdfInspectionQueue(limits({ runningMax: 0 }))).toThrow(RangeError);
    expect(() => createPdfInspectionQueue(limits({ perAccountMax: 1.5 }))).toThrow(RangeError);
    expect(() => createPdfInspectionQueue(limits({ waitingMax: -1 }))).toThrow(RangeError);
    expect(() => createPdfInspectionQueue(limits({ waitingMax: 0 }))).not.toThrow();
  });
});
