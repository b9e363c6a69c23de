import { describe, expect, it } from 'vitest';
import { bindingOf, clientSeen, deviceName } from './client';

describe('device names', () => {
  it('names a browser and its system', () => {
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
    expect(deviceName(chrome)).toBe('Chrome on Linux');
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
    expect(deviceName(iphone)).toBe('Safari on iOS');
  });

  it('keeps an agent it does not recognise as it is, and says when there is none', () => {
    expect(deviceName('curl/8.5.0')).toBe('curl/8.5.0');
    expect(deviceName('node')).toBe('node');
    expect(deviceName(null)).toBe('Unknown device');
    expect(deviceName('   ')).toBe('Unknown device');
  });
});

describe('what is kept of a client', () => {
  it('bounds the stored address and user agent', () => {
    const seen = clientSeen({ address: '198.51.100.1', userAgent: 'x'.repeat(2000) });
    expect(seen.userAgent).toHaveLength(512);
    expect(clientSeen({ address: '198.51.100.1', userAgent: undefined }).userAgent).toBeNull();
  });

  it('binds to the network and the user agent, never to the agent in clear', () => {
    const agent = 'Mozilla/5.0 SecretBrowser/1.0';
    const binding = bindingOf({ address: '198.51.100.1', userAgent: agent });
    expect(binding).not.toContain('SecretBrowser');
    expect(bindingOf({ address: '198.51.100.200', userAgent: agent })).toBe(binding);
    expect(bindingOf({ address: '198.51.100.1', userAgent: `${agent} ` })).not.toBe(binding);
  });
});
