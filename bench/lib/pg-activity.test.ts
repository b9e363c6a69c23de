import { describe, expect, it } from 'vitest';
import {
  activityLabel,
  countersBetween,
  describeActivity,
  describeCounters,
  summarizeActivity,
  type ActivitySample,
} from './pg-activity';

const row = (state: string | null, type: string | null = null, event: string | null = null) => ({
  state,
  wait_event_type: type,
  wait_event: event,
});

describe('activityLabel', () => {
  it('labels working backends and backends holding a transaction open; plain idle is not work', () => {
    expect(activityLabel(row('active'))).toBe('CPU');
    expect(activityLabel(row('active', 'IO', 'WalSync'))).toBe('IO:WalSync');
    expect(activityLabel(row('active', 'Lock', 'transactionid'))).toBe('Lock:transactionid');
    expect(activityLabel(row('idle in transaction', 'Client', 'ClientRead'))).toBe(
      'in transaction, Client:ClientRead',
    );
    expect(activityLabel(row('idle in transaction (aborted)', 'Client', 'ClientRead'))).toBe(
      'in transaction, Client:ClientRead',
    );
    expect(activityLabel(row('idle', 'Client', 'ClientRead'))).toBeUndefined();
    expect(activityLabel(row(null))).toBeUndefined();
  });
});

describe('summarizeActivity', () => {
  const samples: ActivitySample[] = [
    {
      activity: [row('active'), row('active', 'IO', 'WalSync'), row('idle', 'Client', 'ClientRead')],
      lockWaits: [],
    },
    {
      activity: [row('active'), row('active'), row('idle in transaction', 'Client', 'ClientRead')],
      lockWaits: [
        { locktype: 'transactionid', mode: 'ShareLock' },
        { locktype: 'advisory', mode: 'ExclusiveLock' },
      ],
    },
    { activity: [], lockWaits: [{ locktype: 'transactionid', mode: 'ShareLock' }] },
    { activity: [row('active', 'IO', 'WalSync')], lockWaits: [] },
  ];

  it('averages backends per sample by label, largest first, and counts lock waits by type and mode', () => {
    const summary = summarizeActivity(samples);
    expect(summary.samples).toBe(4);
    expect(Object.entries(summary.backends)).toEqual([
      ['CPU', 0.75],
      ['IO:WalSync', 0.5],
      ['in transaction, Client:ClientRead', 0.25],
    ]);
    expect(Object.entries(summary.lockWaits)).toEqual([
      ['transactionid/ShareLock', 0.5],
      ['advisory/ExclusiveLock', 0.25],
    ]);
    expect(summary.samplesWithLockWaits).toBe(2);
  });

  it('describes a summary in one line, and an empty one without dividing by zero', () => {
    expect(describeActivity(summarizeActivity(samples), 2)).toBe(
      '4 samples: CPU 0.75, IO:WalSync 0.50; lock waits in 2 samples: transactionid/ShareLock 0.50, advisory/ExclusiveLock 0.25',
    );
    expect(describeActivity(summarizeActivity([]))).toBe('0 samples: none active; no lock waits');
  });
});

describe('countersBetween', () => {
  it('subtracts the counters, and describes them per placement', () => {
    const delta = countersBetween(
      { writeTransactions: 1_000, walBytes: 50_000 },
      { writeTransactions: 1_250, walBytes: 950_000 },
    );
    expect(delta).toEqual({ writeTransactions: 250, walBytes: 900_000 });
    expect(describeCounters(delta, 200)).toBe('per placement 1.25 write transactions, 4500 B of WAL');
    expect(describeCounters(delta, 0)).toBe('per placement — write transactions, — B of WAL');
  });
});
