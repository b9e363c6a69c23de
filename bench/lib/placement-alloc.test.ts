import { describe, expect, it } from 'vitest';
import { allocationPerPlacement, allocationSetup, describeAllocation } from './placement-alloc';

describe('heap allocation per placement', () => {
  const idle = {
    start: { gateway: 0, order: 1_000 },
    end: { gateway: 200_000, order: 101_000 },
    wallSeconds: 2,
  };
  const load = {
    start: { gateway: 1_000_000, order: 5_000_000 },
    end: { gateway: 7_400_000, order: 8_300_000 },
    wallSeconds: 4,
  };

  it('divides each process allocation by the placements, and nets out the idle rate over as long', () => {
    const perProcess = allocationPerPlacement(load, 100, idle);
    // gateway: 6.4 MB over 100 placements; idle 100 kB/s for 4 s is 400 kB of it.
    expect(perProcess.gateway).toEqual({
      bytesPerPlacement: 64_000,
      netOfIdleBytesPerPlacement: 60_000,
      idleBytesPerSec: 100_000,
    });
    expect(perProcess.order).toEqual({
      bytesPerPlacement: 33_000,
      netOfIdleBytesPerPlacement: 31_000,
      idleBytesPerSec: 50_000,
    });
    expect(allocationSetup(perProcess)).toEqual({
      alloc_bytes_per_placement: 97_000,
      alloc_net_of_idle_bytes_per_placement: 91_000,
      alloc_idle_bytes_per_s: 150_000,
      alloc_per_process_bytes_per_placement:
        'gateway 64000 (net of idle 60000), order 33000 (net of idle 31000)',
      alloc_per_process_idle_bytes_per_s: 'gateway 100000, order 50000',
    });
  });

  it('leaves out a process without the counter, and has no net figure without an idle window', () => {
    const perProcess = allocationPerPlacement(
      { start: { platform: 0, old: null }, end: { platform: 500_000, old: null }, wallSeconds: 1 },
      10,
      undefined,
    );
    expect(Object.keys(perProcess)).toEqual(['platform']);
    expect(allocationSetup(perProcess)).toEqual({
      alloc_bytes_per_placement: 50_000,
      alloc_net_of_idle_bytes_per_placement: null,
      alloc_idle_bytes_per_s: null,
    });
    expect(describeAllocation(perProcess)).toBe(
      'heap allocated per placement: platform 50000 B (net of idle ? B; idle ? B/s)',
    );
    expect(allocationSetup({})).toEqual({ alloc_bytes_per_placement: null });
  });
});
