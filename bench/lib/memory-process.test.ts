import { describe, expect, it } from 'vitest';
import { medianRssMb, readRssMb, sampleRss, startIdleNode } from './memory-process';

describe('measuring a process', () => {
  it("reads an idle node's RSS from /proc until it stops", async () => {
    const bare = startIdleNode();
    try {
      // A read right after the spawn can land between exec and Node's start-up, when the new
      // process has touched only a few pages (seen on Node 26 on a busy machine): wait for Node.
      for (const until = Date.now() + 10_000; ((await bare.rssMb()) ?? 0) <= 5 && Date.now() < until;) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const samples = await sampleRss(bare, 300, 100);
      expect(samples.length).toBeGreaterThanOrEqual(3);
      expect(samples.every((s) => s.rssMb > 5 && s.rssMb < 1024)).toBe(true);
      expect(medianRssMb(samples)).toBeGreaterThan(5);
      expect(await bare.descendantsRssMb()).toBe(0);
    } finally {
      await bare.stop();
    }
    expect(await bare.rssMb()).toBeNull();
    await expect(sampleRss(bare, 100, 50)).rejects.toThrow(/exited/);
  });

  it('gives no RSS for a process that does not exist', async () => {
    expect(await readRssMb(2 ** 22 + 1)).toBeNull();
  });
});
