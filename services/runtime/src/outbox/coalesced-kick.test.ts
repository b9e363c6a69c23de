import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { coalescedKick } from './coalesced-kick';

describe('coalescedKick', () => {
  it('kicks at once when idle, folds the kicks of the next interval into one at its end', async () => {
    const kicks: number[] = [];
    const started = performance.now();
    const kick = coalescedKick(() => kicks.push(performance.now() - started), 40);
    kick();
    expect(kicks).toHaveLength(1); // the first commit is not held back
    for (let i = 0; i < 20; i++) kick();
    expect(kicks).toHaveLength(1);
    await sleep(80);
    expect(kicks).toHaveLength(2); // one trailing kick for all twenty
    expect(kicks[1]!).toBeGreaterThanOrEqual(35);
    await sleep(60);
    kick(); // the interval since the trailing kick has passed: at once again
    expect(kicks).toHaveLength(3);
  });

  it('drops a pending kick when cancelled', async () => {
    let kicks = 0;
    const kick = coalescedKick(() => kicks++, 20);
    kick();
    kick();
    kick.cancel();
    await sleep(50);
    expect(kicks).toBe(1);
  });
});
