import { describe, expect, it } from 'vitest';
import { retryOnLockConflict } from './place-trade.handler';

describe('retryOnLockConflict', () => {
  it('tries again after a deadlock or serialization failure, up to three attempts', async () => {
    let calls = 0;
    const result = await retryOnLockConflict(async () => {
      calls++;
      if (calls < 3)
        throw Object.assign(new Error('deadlock detected'), { code: calls === 1 ? '40P01' : '40001' });
      return 'placed';
    });
    expect(result).toBe('placed');
    expect(calls).toBe(3);
  });

  it('gives up after the third attempt and passes other errors straight through', async () => {
    let calls = 0;
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    await expect(
      retryOnLockConflict(async () => {
        calls++;
        throw deadlock;
      }),
    ).rejects.toBe(deadlock);
    expect(calls).toBe(3);
    calls = 0;
    const refused = Object.assign(new Error('Insufficient balance'), { code: 'INSUFFICIENT_FUNDS' });
    await expect(
      retryOnLockConflict(async () => {
        calls++;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
  });
});
