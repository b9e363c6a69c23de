import { describe, expect, it } from 'vitest';
import type { Dispute } from '../../../lib/disputes';
import {
  RESOLUTION_NOTICE_MS_MAX,
  SHOWN_IDS_MAX,
  decideResolutionToasts,
  resolutionTitle,
} from './dispute-toasts';

const NOW = Date.UTC(2026, 0, 6, 12, 0, 0);

function dispute(id: string, overrides: Partial<Dispute> = {}): Dispute {
  return {
    id,
    trade_id: `trade-${id}`,
    pair: 'BTCUSDT',
    reason: 'The exit looks wrong',
    status: 'open',
    replay: {
      verdict: 'confirmed',
      summary: 'The replay agrees with the settlement',
      steps: [],
      recorded: { outcome: 'won', pnl: 8 },
      replayed: { outcome: 'won', pnl: 8 },
    },
    correction: null,
    resolution_note: null,
    created_at: new Date(NOW - 3600_000).toISOString(),
    resolved_at: null,
    ...overrides,
  };
}

function resolved(
  id: string,
  status: 'confirmed' | 'corrected',
  agoMs = 60_000,
  correction: number | null = null,
) {
  return dispute(id, { status, correction, resolved_at: new Date(NOW - agoMs).toISOString() });
}

describe('resolutionTitle', () => {
  it('says which way the dispute went', () => {
    expect(resolutionTitle({ status: 'confirmed', correction: null })).toBe(
      'Dispute resolved: settlement confirmed',
    );
    expect(resolutionTitle({ status: 'corrected', correction: 8 })).toBe(
      'Dispute resolved: corrected by +$8.00',
    );
    expect(resolutionTitle({ status: 'corrected', correction: -2.5 })).toBe(
      'Dispute resolved: corrected by -$2.50',
    );
  });
});

describe('decideResolutionToasts', () => {
  it('shows nothing for open disputes', () => {
    expect(decideResolutionToasts([dispute('a'), dispute('b')], [], NOW)).toEqual({
      toasts: [],
      shownIds: [],
    });
  });

  it('toasts a resolution once, then remembers it', () => {
    const first = decideResolutionToasts([resolved('a', 'confirmed'), dispute('b')], [], NOW);
    expect(first.toasts).toEqual([{ disputeId: 'a', title: 'Dispute resolved: settlement confirmed' }]);
    expect(first.shownIds).toEqual(['a']);
    const again = decideResolutionToasts([resolved('a', 'confirmed'), dispute('b')], first.shownIds, NOW);
    expect(again.toasts).toEqual([]);
    expect(again.shownIds).toEqual(['a']);
  });

  it('toasts each new resolution, the oldest first so the newest ends on top', () => {
    // The API lists newest first.
    const { toasts, shownIds } = decideResolutionToasts(
      [
        resolved('c', 'corrected', 1000, 8),
        resolved('b', 'confirmed', 2000),
        resolved('a', 'confirmed', 3000),
      ],
      ['a'],
      NOW,
    );
    expect(toasts.map((t) => t.title)).toEqual([
      'Dispute resolved: settlement confirmed',
      'Dispute resolved: corrected by +$8.00',
    ]);
    expect(toasts.map((t) => t.disputeId)).toEqual(['b', 'c']);
    expect(shownIds).toEqual(['c', 'b', 'a']);
  });

  it('only remembers resolutions older than the notice window, without a toast', () => {
    const { toasts, shownIds } = decideResolutionToasts(
      [resolved('old', 'confirmed', RESOLUTION_NOTICE_MS_MAX + 1)],
      [],
      NOW,
    );
    expect(toasts).toEqual([]);
    expect(shownIds).toEqual(['old']);
  });

  it('remembers at most SHOWN_IDS_MAX ids, the newest', () => {
    const earlier = Array.from({ length: SHOWN_IDS_MAX }, (_, i) => `old-${i}`);
    const { shownIds } = decideResolutionToasts([resolved('new', 'confirmed')], earlier, NOW);
    expect(shownIds).toHaveLength(SHOWN_IDS_MAX);
    expect(shownIds[0]).toBe('new');
    expect(shownIds).not.toContain(`old-${SHOWN_IDS_MAX - 1}`);
  });
});
