import { ConfigError } from '@updown/runtime';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../config';
import { pdfInspectionLimits } from './identity.config';
import { PDF_INSPECTION_LIMITS_DEFAULT } from '@updown/accounts';

describe('the PDF inspection queue settings', () => {
  it('default to two running, eight waiting and two per account', () => {
    expect(pdfInspectionLimits(loadGatewayConfig({}))).toEqual(PDF_INSPECTION_LIMITS_DEFAULT);
    expect(PDF_INSPECTION_LIMITS_DEFAULT).toEqual({ runningMax: 2, waitingMax: 8, perAccountMax: 2 });
  });

  it('are read from the gateway environment, and zero waiting places is allowed', () => {
    const config = loadGatewayConfig({
      IDENTITY_PDF_RUNNING_MAX: '4',
      IDENTITY_PDF_WAITING_MAX: '0',
      IDENTITY_PDF_PER_ACCOUNT_MAX: '1',
    });
    expect(pdfInspectionLimits(config)).toEqual({ runningMax: 4, waitingMax: 0, perAccountMax: 1 });
  });

  it('refuse values that would turn a bound off or make it meaningless, naming each', () => {
    let caught: unknown;
    try {
      loadGatewayConfig({
        IDENTITY_PDF_RUNNING_MAX: '0',
        IDENTITY_PDF_WAITING_MAX: 'lots',
        IDENTITY_PDF_PER_ACCOUNT_MAX: '21',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toContain('IDENTITY_PDF_RUNNING_MAX must be at least 1');
    expect(message).toContain('IDENTITY_PDF_WAITING_MAX must be an integer');
    expect(message).toContain('IDENTITY_PDF_PER_ACCOUNT_MAX must be at most 20');
  });
});
