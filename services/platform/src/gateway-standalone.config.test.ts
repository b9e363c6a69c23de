import { describe, expect, it } from 'vitest';
import { ConfigError } from '@updown/runtime';
import { loadGatewayStandaloneConfig } from './gateway-standalone.config';

const PRODUCTION = {
  UPDOWN_ENV: 'production',
  JWT_SECRET: 'q7Hc2Lw9XbT4mVz1Rk8Np3Ys6Fd0Ga5Je2Uo9Ci4Bx7Wl1M',
  SERVICE_TOKEN: 'Zr4Kp8Qw1Ev6Tn3Ym9Lb2Hs7Dx5Cj0Fu4Ga8Ni1Oz6Wq3P',
  METRICS_TOKEN: 'Vn5Rb8Xc2Wq7Lm4Tz1Hk6Pj9Sd3Fg0Ya',
};

describe('the gateway running alone', () => {
  it('finds the order service on loopback :8083 by default', () => {
    const config = loadGatewayStandaloneConfig({});
    expect(config.ORDER_URL).toBe('http://127.0.0.1:8083');
    expect(config.ORDER_TIMEOUT_MS).toBe(5_000);
  });

  it('names every bad variable at once, its own and the service token', () => {
    const load = () =>
      loadGatewayStandaloneConfig({
        ...PRODUCTION,
        ORDER_URL: 'ftp://order',
        SERVICE_TOKEN: undefined,
        PORT: 'x',
      });
    expect(load).toThrow(ConfigError);
    try {
      load();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('ORDER_URL must use http or https');
      expect(problems).toContain('SERVICE_TOKEN is required when UPDOWN_ENV=production');
      expect(problems).toContain('PORT must be');
    }
  });

  it('refuses production with /metrics open on the public port, naming the variables', () => {
    const load = () => loadGatewayStandaloneConfig({ ...PRODUCTION, METRICS_TOKEN: undefined });
    expect(load).toThrow(/METRICS_TOKEN or METRICS_PORT is required when UPDOWN_ENV=production/);
    expect(
      loadGatewayStandaloneConfig({ ...PRODUCTION, METRICS_TOKEN: undefined, METRICS_PORT: '9464' })
        .METRICS_PORT,
    ).toBe(9464);
  });

  it('accepts a complete production configuration', () => {
    expect(loadGatewayStandaloneConfig({ ...PRODUCTION, ORDER_URL: 'http://order:8083' }).ORDER_URL).toBe(
      'http://order:8083',
    );
  });
});

describe('gateway start-up', () => {
  it('refuses a short JWT_SECRET in production with a message naming it', async () => {
    const { execFile } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const main = fileURLToPath(new URL('./gateway.main.ts', import.meta.url));
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', main],
        { env: { ...process.env, UPDOWN_ENV: 'production', JWT_SECRET: 'short-secret' }, timeout: 60_000 },
        (error, _stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('JWT_SECRET must be at least 32 characters in production');
  });
});
