import { CRASH_TARGETS, type ChaosPlatform, type CrashTarget } from './platform';
import type { Random } from './random';

/**
 * Injects crashes at seeded points of the workload: when the op count passes the next threshold,
 * one of settlement, order, the gateway or PostgreSQL gets SIGKILL, stays down for a short random
 * while, and is started again. Targets come in shuffled rounds of all four, so every kind is hit
 * once per four crashes. One crash at a time: the next waits until the last target is back.
 */

export interface CrashOptions {
  /** Ops between two crashes, drawn uniformly from this range. */
  readonly opsBetween: readonly [number, number];
  readonly downMs: readonly [number, number];
}

export interface CrashLog {
  readonly total: () => number;
  readonly byTarget: Map<CrashTarget, number>;
  /** Set when a kill or restart failed; the run cannot go on. */
  readonly error: () => Error | undefined;
  /** Stops after the crash in progress, with everything running again. */
  stop(): Promise<void>;
}

export function startCrashes(
  platform: ChaosPlatform,
  random: Random,
  opsDone: () => number,
  options: CrashOptions,
  log: (line: string) => void,
): CrashLog {
  const byTarget = new Map<CrashTarget, number>(CRASH_TARGETS.map((t) => [t, 0]));
  let total = 0;
  let stopped = false;
  let round: CrashTarget[] = [];

  const loop = async () => {
    let threshold = opsDone() + random.int(...options.opsBetween);
    while (!stopped) {
      if (opsDone() < threshold) {
        await sleep(50);
        continue;
      }
      if (round.length === 0) round = shuffle(random, [...CRASH_TARGETS]);
      const target = round.shift()!;
      const downMs = random.int(...options.downMs);
      const started = Date.now();
      await platform.kill(target);
      await sleep(downMs);
      await platform.restart(target);
      total++;
      byTarget.set(target, byTarget.get(target)! + 1);
      log(
        `crash ${total}: ${target} at op ${threshold}, down ${downMs} ms, back after ${Date.now() - started} ms`,
      );
      threshold += random.int(...options.opsBetween);
    }
  };
  let failure: Error | undefined;
  const running = loop().catch((error: unknown) => {
    failure = error instanceof Error ? error : new Error(String(error));
  });
  return {
    total: () => total,
    byTarget,
    error: () => failure,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
