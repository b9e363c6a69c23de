import { request } from 'undici';
import type { ProbedProcess } from './placement-probe';
import { parsePromText, promSum } from './prom-text';

/**
 * Bytes each platform process allocated on its V8 heap over a load window, per placement, from
 * `updown_heap_allocated_bytes_total` scraped at both ends (see services/runtime/README.md for
 * how the counter is kept and its error). Allocation drives the scavenges the tail probes count, and
 * unlike CPU time it does not move with the neighbours on a shared machine.
 */

export const HEAP_ALLOCATED_SERIES = 'updown_heap_allocated_bytes_total';

/** Each process's counter, or null for a process that does not export it. */
export type HeapAllocatedSnapshot = Readonly<Record<string, number | null>>;

export interface AllocationWindow {
  readonly start: HeapAllocatedSnapshot;
  readonly end: HeapAllocatedSnapshot;
  readonly wallSeconds: number;
}

export async function heapAllocatedOf(processes: readonly ProbedProcess[]): Promise<HeapAllocatedSnapshot> {
  const values = await Promise.all(
    processes.map(async (p) => {
      const response = await request(p.metricsUrl, { headersTimeout: 10_000, bodyTimeout: 10_000 });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${p.metricsUrl} answered ${response.statusCode}`);
      const samples = parsePromText(text);
      return samples.some((s) => s.name === HEAP_ALLOCATED_SERIES)
        ? promSum(samples, HEAP_ALLOCATED_SERIES)
        : null;
    }),
  );
  return Object.fromEntries(processes.map((p, i) => [p.name, values[i]!]));
}

/** Runs `work` between two readings of every process's counter. */
export async function withAllocation<T>(
  processes: readonly ProbedProcess[],
  work: () => Promise<T>,
): Promise<{ result: T; allocation: AllocationWindow }> {
  const start = await heapAllocatedOf(processes);
  const startedAt = performance.now();
  const result = await work();
  const wallSeconds = (performance.now() - startedAt) / 1000;
  const end = await heapAllocatedOf(processes);
  return { result, allocation: { start, end, wallSeconds } };
}

export interface ProcessAllocation {
  readonly bytesPerPlacement: number;
  /** Less the idle window's rate of allocation over as long: what the placements themselves cost. */
  readonly netOfIdleBytesPerPlacement: number | null;
  readonly idleBytesPerSec: number | null;
}

const allocatedIn = (window: AllocationWindow, name: string): number | null => {
  const start = window.start[name];
  const end = window.end[name];
  return start === null || start === undefined || end === null || end === undefined ? null : end - start;
};

/** Per process; a process without the counter is left out. */
export function allocationPerPlacement(
  window: AllocationWindow,
  placements: number,
  idle: AllocationWindow | undefined,
): Record<string, ProcessAllocation> {
  const out: Record<string, ProcessAllocation> = {};
  for (const name of Object.keys(window.end)) {
    const bytes = allocatedIn(window, name);
    if (bytes === null || placements <= 0) continue;
    const idleBytes = idle ? allocatedIn(idle, name) : null;
    const idleBytesPerSec =
      idle && idleBytes !== null && idle.wallSeconds > 0 ? idleBytes / idle.wallSeconds : null;
    out[name] = {
      bytesPerPlacement: Math.round(bytes / placements),
      netOfIdleBytesPerPlacement:
        idleBytesPerSec === null
          ? null
          : Math.round((bytes - idleBytesPerSec * window.wallSeconds) / placements),
      idleBytesPerSec: idleBytesPerSec === null ? null : Math.round(idleBytesPerSec),
    };
  }
  return out;
}

const sum = (values: readonly (number | null)[]): number | null =>
  values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a + v!, 0);

/**
 * The `setup` fields: every platform process together (bytes per placement, net of idle, and the
 * idle rate in bytes/s), then, with several processes, each process's figures.
 */
export function allocationSetup(
  perProcess: Readonly<Record<string, ProcessAllocation>>,
): Record<string, number | string | null> {
  const entries = Object.entries(perProcess);
  if (entries.length === 0) return { alloc_bytes_per_placement: null };
  const setup: Record<string, number | string | null> = {
    alloc_bytes_per_placement: sum(entries.map(([, a]) => a.bytesPerPlacement)),
    alloc_net_of_idle_bytes_per_placement: sum(entries.map(([, a]) => a.netOfIdleBytesPerPlacement)),
    alloc_idle_bytes_per_s: sum(entries.map(([, a]) => a.idleBytesPerSec)),
  };
  if (entries.length > 1) {
    setup.alloc_per_process_bytes_per_placement = entries
      .map(
        ([name, a]) => `${name} ${a.bytesPerPlacement} (net of idle ${a.netOfIdleBytesPerPlacement ?? '?'})`,
      )
      .join(', ');
    setup.alloc_per_process_idle_bytes_per_s = entries
      .map(([name, a]) => `${name} ${a.idleBytesPerSec ?? '?'}`)
      .join(', ');
  }
  return setup;
}

/** One log line: `heap allocated per placement: platform 61234 B (net of idle 58012 B); idle 210345 B/s`. */
export function describeAllocation(perProcess: Readonly<Record<string, ProcessAllocation>>): string {
  const entries = Object.entries(perProcess);
  if (entries.length === 0) return 'heap allocated per placement: not exported';
  return `heap allocated per placement: ${entries
    .map(
      ([name, a]) =>
        `${name} ${a.bytesPerPlacement} B (net of idle ${a.netOfIdleBytesPerPlacement ?? '?'} B; idle ${a.idleBytesPerSec ?? '?'} B/s)`,
    )
    .join(', ')}`;
}
