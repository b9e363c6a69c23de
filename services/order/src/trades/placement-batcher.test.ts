import { describe, expect, it } from 'vitest';
import { createBatcher, type BatchMarks, type BatcherOptions, type Settled } from './placement-batcher';

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

describe('createBatcher phases', () => {
  /** A fake monotonic clock, and a runner whose batches mark their commit at the times the test sets. */
  function timedRunner() {
    const clock = { ms: 0 };
    const pending: Array<{ requests: readonly string[]; marks: BatchMarks; resolve: () => void }> = [];
    const run = (requests: readonly string[], marks: BatchMarks) =>
      new Promise<Settled<string>[]>((resolve) =>
        pending.push({
          requests,
          marks,
          resolve: () => resolve(requests.map((r) => ({ ok: true, value: r }))),
        }),
      );
    /** The running batch: statements until `sentMs`, commit acknowledged at `ackMs`, answered at `answeredMs`. */
    const complete = async (sentMs: number, ackMs: number, answeredMs: number) => {
      const batch = pending.shift()!;
      batch.marks.commitSentMs = sentMs;
      batch.marks.commitAckMs = ackMs;
      clock.ms = answeredMs;
      batch.resolve();
      await flush();
    };
    return { clock, run, complete };
  }

  type Phases = [queued: number, statements: number, commit: number, answer: number, behind: number];

  it("splits each request's time into queued, statements, commit and answer, and the wait behind the previous commit", async () => {
    const runner = timedRunner();
    const phases: Phases[] = [];
    const place = batcher({
      run: runner.run,
      now: () => runner.clock.ms,
      onPhases: (...p) => phases.push(p),
    });
    runner.clock.ms = 100;
    const first = place('a');
    await flush();
    // The second arrives while the first batch runs its statements (until 104), then commits (to 110).
    runner.clock.ms = 102;
    const second = place('b');
    await flush();
    await runner.complete(104, 110, 111);
    await runner.complete(115, 118, 118.5);
    await Promise.all([first, second]);
    expect(phases).toEqual([
      [0, 4, 6, 1, 0],
      // Queued from 102 to the second batch's start at 111, 6 ms of it behind the first's commit.
      [9, 4, 3, 0.5, 6],
    ]);
  });

  it('counts a batch that sent no commit (nothing written) as answered when its run returned', async () => {
    const clock = { ms: 5 };
    const phases: Phases[] = [];
    const place = batcher({
      run: async (requests) => {
        clock.ms = 8;
        return requests.map((r) => ({ ok: true, value: r }));
      },
      now: () => clock.ms,
      onPhases: (...p) => phases.push(p),
    });
    await place('a');
    expect(phases).toEqual([[0, 3, 0, 0, 0]]);
  });

  it('does not time the requests of a batch that failed as a whole', async () => {
    const phases: Phases[] = [];
    const place = batcher({
      run: async () => {
        throw new Error('lost connection');
      },
      onPhases: (...p) => phases.push(p),
    });
    await expect(place('a')).rejects.toThrow('lost connection');
    expect(phases).toEqual([]);
  });
});
