import { describe, expect, it } from 'vitest';
import { longSuiteRank, longSuitesFirst } from './test-sequencer';

describe('longSuitesFirst', () => {
  it('puts the long suites first in their listed order and keeps the rest as given', () => {
    const given = [
      'services/wallet/src/ledger/ledger.int.test.ts',
      'e2e/trading.e2e.test.ts',
      'console/src/lib/format.test.ts',
      'services/platform/src/distributed.int.test.ts',
      'chaos/races/placement-burst.int.test.ts',
      'chaos/crash-consistency.int.test.ts',
      'e2e/receipts.e2e.test.ts',
      'e2e/feeds.e2e.test.ts',
    ];
    expect(longSuitesFirst(given, (file) => file)).toEqual([
      'chaos/crash-consistency.int.test.ts',
      'services/platform/src/distributed.int.test.ts',
      'e2e/receipts.e2e.test.ts',
      'e2e/trading.e2e.test.ts',
      'e2e/feeds.e2e.test.ts',
      'chaos/races/placement-burst.int.test.ts',
      'services/wallet/src/ledger/ledger.int.test.ts',
      'console/src/lib/format.test.ts',
    ]);
  });

  it('ranks only the suites it lists', () => {
    expect(longSuiteRank('chaos/crash-consistency.int.test.ts')).toBe(0);
    expect(longSuiteRank('services/platform/src/platform.int.test.ts')).toBeDefined();
    expect(longSuiteRank('services/platform/src/platforms.int.test.ts')).toBeUndefined();
    expect(longSuiteRank('services/order/src/trades/place-trade.int.test.ts')).toBeUndefined();
  });
});
