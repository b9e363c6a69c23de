import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveCap } from './risk.domain';
import { checkResumable, checkTraderCaps, type TraderCaps } from './risk-settings.domain';

function refusal(run: () => void): { code: string; detail: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, detail: message };
  }
}

const NONE: TraderCaps = { openStakeCentsMax: null, openTradesMax: null };

describe("a trader's own caps", () => {
  const defaults: TraderCaps = { openStakeCentsMax: 10_000, openTradesMax: 5 };

  it('may equal or be below the defaults, or be left out', () => {
    expect(refusal(() => checkTraderCaps({ openStakeCentsMax: 10_000, openTradesMax: 5 }, defaults))).toBe(
      undefined,
    );
    expect(refusal(() => checkTraderCaps({ openStakeCentsMax: 1, openTradesMax: 0 }, defaults))).toBe(
      undefined,
    );
    expect(refusal(() => checkTraderCaps(NONE, defaults))).toBe(undefined);
  });

  it('are refused above a default, naming the default, the open stake first', () => {
    expect(
      refusal(() => checkTraderCaps({ openStakeCentsMax: 15_000, openTradesMax: null }, defaults)),
    ).toEqual({
      code: 'INVALID_RISK_SETTINGS',
      detail: "A trader's cap can only be lower than the default (open stake $100.00)",
    });
    expect(refusal(() => checkTraderCaps({ openStakeCentsMax: null, openTradesMax: 6 }, defaults))).toEqual({
      code: 'INVALID_RISK_SETTINGS',
      detail: "A trader's cap can only be lower than the default (5 open trades)",
    });
    expect(
      refusal(() => checkTraderCaps({ openStakeCentsMax: 123_456_789, openTradesMax: 6 }, defaults))?.detail,
    ).toBe("A trader's cap can only be lower than the default (open stake $100.00)");
    expect(
      refusal(() =>
        checkTraderCaps(
          { openStakeCentsMax: 200_000_000, openTradesMax: null },
          { ...defaults, openStakeCentsMax: 123_456_789 },
        ),
      )?.detail,
    ).toBe("A trader's cap can only be lower than the default (open stake $1,234,567.89)");
  });

  it('are any caps when there is no default', () => {
    expect(refusal(() => checkTraderCaps({ openStakeCentsMax: 1e12, openTradesMax: 1e6 }, NONE))).toBe(
      undefined,
    );
  });

  it('are accepted exactly when they are the caps that apply', () => {
    const cap = fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null });
    fc.assert(
      fc.property(cap, cap, cap, cap, (ownStake, ownTrades, defaultStake, defaultTrades) => {
        const own = { openStakeCentsMax: ownStake, openTradesMax: ownTrades };
        const accepted = refusal(() =>
          checkTraderCaps(own, { openStakeCentsMax: defaultStake, openTradesMax: defaultTrades }),
        );
        const apply =
          (ownStake === null || effectiveCap(defaultStake, ownStake) === ownStake) &&
          (ownTrades === null || effectiveCap(defaultTrades, ownTrades) === ownTrades);
        expect(accepted === undefined).toBe(apply);
      }),
    );
  });
});

describe('resuming a pair', () => {
  it('is refused unless its breaker tripped', () => {
    expect(refusal(() => checkResumable('EURUSD', null))).toEqual({
      code: 'PAIR_NOT_SUSPENDED',
      detail: 'Real trading on EURUSD is not suspended',
    });
    expect(refusal(() => checkResumable('EURUSD', 1_700_000_000_000))).toBe(undefined);
  });
});
