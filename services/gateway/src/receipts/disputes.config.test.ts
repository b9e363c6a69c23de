import { ConfigError } from '@updown/runtime';
import { DISPUTE_LIMITS_DEFAULT } from '@updown/settlement';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../config';
import { disputeLimits } from './disputes.config';

describe('the dispute filing caps', () => {
  it('default to 20 open and 50 a day per trader', () => {
    expect(disputeLimits(loadGatewayConfig({}))).toEqual(DISPUTE_LIMITS_DEFAULT);
    expect(DISPUTE_LIMITS_DEFAULT).toEqual({ openPerTraderMax: 20, filedPerTraderPerDayMax: 50 });
  });

  it('are read from the gateway environment', () => {
    const config = loadGatewayConfig({
      DISPUTES_OPEN_PER_TRADER_MAX: '5',
      DISPUTES_PER_TRADER_PER_DAY_MAX: '12',
    });
    expect(disputeLimits(config)).toEqual({ openPerTraderMax: 5, filedPerTraderPerDayMax: 12 });
  });

  it('refuse a cap that would turn filing off or is not a number, naming each', () => {
    let caught: unknown;
    try {
      loadGatewayConfig({ DISPUTES_OPEN_PER_TRADER_MAX: '0', DISPUTES_PER_TRADER_PER_DAY_MAX: 'many' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toContain('DISPUTES_OPEN_PER_TRADER_MAX must be at least 1');
    expect(message).toContain('DISPUTES_PER_TRADER_PER_DAY_MAX must be an integer');
  });
});
