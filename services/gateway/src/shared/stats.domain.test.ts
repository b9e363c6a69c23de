import { describe, expect, it } from 'vitest';
import { winRatePct } from './stats.domain';

describe('win rate', () => {
  it('is wins over total x 100 with one decimal', () => {
    expect(winRatePct(2, 3)).toBe(66.7);
    expect(winRatePct(1, 3)).toBe(33.3);
    expect(winRatePct(3, 3)).toBe(100);
    expect(winRatePct(0, 0)).toBe(0);
  });
});
