import { describe, expect, it } from 'vitest';
import { isUuid } from '@updown/schemas';
import { settledEventId } from './settled-events';

describe('settledEventId', () => {
  it('is one valid UUID per trade, the same on every call', () => {
    const a = settledEventId('6f1c1c8e-4a8e-4a53-9a4e-0d6cbd9d1b10');
    expect(isUuid(a)).toBe(true);
    expect(a[14]).toBe('8');
    expect('89ab').toContain(a[19]);
    expect(settledEventId('6f1c1c8e-4a8e-4a53-9a4e-0d6cbd9d1b10')).toBe(a);
    expect(settledEventId('6f1c1c8e-4a8e-4a53-9a4e-0d6cbd9d1b11')).not.toBe(a);
  });
});
