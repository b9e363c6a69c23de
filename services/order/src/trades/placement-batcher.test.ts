import { describe, expect, it } from 'vitest';
import { createBatcher, type BatcherOptions, type Settled } from './placement-batcher';

/** A batch runner whose batches the test completes by hand, recording what each batch held. */
function manualRunner() {
  const batches: string[][] = [];
  const pending: Array<(outcomes: Settled<string>[]) => void> = [];
  const run = (requests: readonly string[]) => {
    batches.push([...requests]);
    return new Promise<Settled<string>[]>((resolve) => pending.push(resolve));
  };
  /** Completes the oldest batch still running, answering every request with `<request>!`. */
  const completeNext = async () => {
    const requests = batches[batches.length - pending.length]!;
    pending.shift()!(requests.map((r) => ({ ok: true, value: `${r}!` })));
    await flush();
  };
  return { batches, run, completeNext };
}

/** Lets every queued microtask and promise continuation run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function batcher(
  options: Partial<BatcherOptions<string, string>> & Pick<BatcherOptions<string, string>, 'run'>,
) {
  return createBatcher<string, string>({ batchMax: 200, ...options });
}

describe('createBatcher', () => {
  it('starts a lone request at once, before any timer or I/O callback could run', async () => {
    const runner = manualRunner();
    const place = batcher({ run: runner.run });
    const answer = place('a');
    await Promise.resolve();
    expect(runner.batches).toEqual([['a']]);
    await runner.completeNext();
    expect(await answer).toBe('a!');
  });

  it('sends the requests of one synchronous turn together, and those arriving during a commit as the next batch', async () => {
    const runner = manualRunner();
    const sizes: number[] = [];
    const place = batcher({ run: runner.run, onBatch: (size) => sizes.push(size) });
    const first = ['a', 'b'].map(place);
    await flush();
    const second = ['c', 'd', 'e'].map(place);
    await flush();
    expect(runner.batches).toEqual([['a', 'b']]);
    await runner.completeNext();
    expect(runner.batches).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
    await runner.completeNext();
    expect(await Promise.all([...first, ...second])).toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
    expect(sizes).toEqual([2, 3]);
    // Idle again: the next request goes at once, alone.
    const late = place('f');
    await Promise.resolve();
    expect(runner.batches.at(-1)).toEqual(['f']);
    await runner.completeNext();
    expect(await late).toBe('f!');
  });

  it('takes at most batchMax requests per batch, in arrival order', async () => {
    const runner = manualRunner();
    const place = batcher({ run: runner.run, batchMax: 2 });
    const answers = ['a', 'b', 'c', 'd', 'e'].map(place);
    await flush();
    for (let i = 0; i < 3; i++) await runner.completeNext();
    expect(runner.batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(await Promise.all(answers)).toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
  });

  it("answers each request with its own outcome: one's refusal is not the others'", async () => {
    const refusal = new Error('refused');
    const place = batcher({
      run: async (requests) =>
        requests.map((r): Settled<string> =>
          r === 'bad' ? { ok: false, error: refusal } : { ok: true, value: r },
        ),
    });
    const answers = await Promise.allSettled(['a', 'bad', 'c'].map(place));
    expect(answers).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'rejected', reason: refusal },
      { status: 'fulfilled', value: 'c' },
    ]);
  });

  it('places a failed batch again one request at a time, in arrival order, so only the culprit fails', async () => {
    const runs: string[][] = [];
    const fallbacks: number[] = [];
    const broken = new Error('the batch failed');
    const place = batcher({
      run: async (requests) => {
        runs.push([...requests]);
        if (requests.includes('bad')) throw broken;
        return requests.map((r) => ({ ok: true, value: r }));
      },
      onFallback: (size) => fallbacks.push(size),
    });
    const answers = await Promise.allSettled(['a', 'bad', 'c'].map(place));
    expect(answers).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'rejected', reason: broken },
      { status: 'fulfilled', value: 'c' },
    ]);
    expect(runs).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
    expect(fallbacks).toEqual([3]);
  });

  it('fails every request of a batch whose outcome is unknown, running none of them again', async () => {
    let runs = 0;
    const lost = new Error('connection lost during commit');
    const place = batcher({
      run: async () => {
        runs++;
        throw lost;
      },
      outcomeUnknown: (error) => error === lost,
    });
    const answers = await Promise.allSettled(['a', 'b'].map(place));
    expect(answers.map((a) => a.status === 'rejected' && a.reason)).toEqual([lost, lost]);
    expect(runs).toBe(1);
  });

  it('fails a lone request with its batch error, without running it twice', async () => {
    let runs = 0;
    const place = batcher({
      run: async () => {
        runs++;
        throw new Error('deadlock');
      },
    });
    await expect(place('a')).rejects.toThrow('deadlock');
    expect(runs).toBe(1);
  });

  it('never leaves a request unanswered: a short outcome list or a throwing hook fails the batch', async () => {
    const short = batcher({ run: async () => [{ ok: true, value: 'only one' }] });
    await expect(Promise.all(['a', 'b'].map(short))).rejects.toThrow(
      'a batch of 2 came back with 1 outcomes',
    );
    const hook = batcher({
      run: async (requests) => requests.map((r) => ({ ok: true, value: r })),
      onBatch: () => {
        throw new Error('metrics down');
      },
    });
    await expect(hook('a')).rejects.toThrow('metrics down');
  });

  it('refuses at once, without running it, a request that finds queueMax requests waiting', async () => {
    const runner = manualRunner();
    const place = batcher({ run: runner.run, queueMax: 2, queueFull: () => new Error('queue full') });
    const inFlight = place('a');
    await flush();
    const waiting = ['b', 'c'].map(place);
    await expect(place('d')).rejects.toThrow('queue full');
    await runner.completeNext();
    expect(runner.batches).toEqual([['a'], ['b', 'c']]);
    // The queue drained into the batch now committing: there is room again.
    const later = place('e');
    await runner.completeNext();
    await runner.completeNext();
    expect(await Promise.all([inFlight, ...waiting, later])).toEqual(['a!', 'b!', 'c!', 'e!']);
    expect(runner.batches.flat()).not.toContain('d');
  });

  it('refuses a queue bound that is not a positive integer', () => {
    for (const queueMax of [0, -1, 1.5, Number.NaN]) {
      expect(() => batcher({ run: async () => [], queueMax })).toThrow(RangeError);
    }
  });

  it('refuses a batch size that is not a positive integer', () => {
    for (const batchMax of [0, -1, 1.5, Number.NaN]) {
      expect(() => batcher({ run: async () => [], batchMax })).toThrow(RangeError);
    }
  });
});
