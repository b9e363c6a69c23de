import { describe, expect, it } from 'vitest';
import { bonusDaysRemaining, bonusMaxStakeCents, firstDepositBonus } from './bonus.domain';
import { checkPaymentAmount } from '../commands/wallet.domain';

const DAY = 86_400_000;
const fresh = { bonusUsed: false, hasActiveBonus: false };

describe('first-deposit bonus', () => {
  it('is 50% of a qualifying deposit, with 35x turnover and 30 days validity', () => {
    expect(firstDepositBonus(10_000, fresh, 0)).toEqual({
      amountCents: 5_000,
      turnoverRequiredCents: 175_000,
      expiresAtMs: 30 * DAY,
    });
  });

  it('is capped at $500 (reached at $1,000)', () => {
    expect(firstDepositBonus(100_000, fresh, 0)?.amountCents).toBe(50_000);
    expect(firstDepositBonus(200_000, fresh, 0)?.amountCents).toBe(50_000);
  });

  it('needs at least $20', () => {
    expect(firstDepositBonus(1_999, fresh, 0)).toBeNull();
    expect(firstDepositBonus(2_000, fresh, 0)?.amountCents).toBe(1_000);
  });

  it('rounds half cents down', () => {
    expect(firstDepositBonus(2_001, fresh, 0)?.amountCents).toBe(1_000);
  });

  it('is granted once, and never beside an active bonus', () => {
    expect(firstDepositBonus(10_000, { bonusUsed: true, hasActiveBonus: false }, 0)).toBeNull();
    expect(firstDepositBonus(10_000, { bonusUsed: false, hasActiveBonus: true }, 0)).toBeNull();
  });
});

describe('days remaining', () => {
  it('rounds up and floors at zero', () => {
    expect(bonusDaysRemaining(30 * DAY, 0)).toBe(30);
    expect(bonusDaysRemaining(30 * DAY, 1)).toBe(30);
    expect(bonusDaysRemaining(30 * DAY, 29 * DAY)).toBe(1);
    expect(bonusDaysRemaining(30 * DAY, 30 * DAY - 1)).toBe(1);
    expect(bonusDaysRemaining(30 * DAY, 30 * DAY)).toBe(0);
    expect(bonusDaysRemaining(30 * DAY, 31 * DAY)).toBe(0);
  });
});

describe('max stake', () => {
  it('is 20% of the bonus amount, down to the cent', () => {
    expect(bonusMaxStakeCents(5_000)).toBe(1_000);
    expect(bonusMaxStakeCents(1_001)).toBe(200);
  });
});

describe('payment amounts', () => {
  it('refuses missing, zero, negative and oversized amounts', () => {
    expect(() => checkPaymentAmount(undefined, 'deposit')).toThrow('Please enter a valid amount');
    expect(() => checkPaymentAmount(0, 'deposit')).toThrow('Please enter a valid amount');
    expect(() => checkPaymentAmount(-1, 'withdrawal')).toThrow('Please enter a valid amount');
    expect(() => checkPaymentAmount(10_000_001, 'deposit')).toThrow('Maximum deposit amount is $100,000.00');
    expect(checkPaymentAmount(10_000_000, 'deposit')).toBe(10_000_000);
  });
});
