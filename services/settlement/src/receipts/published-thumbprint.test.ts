import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSigningKey, signingKeyFrom } from '@updown/runtime';
import { keySetThumbprint } from '@updown/verify';
import { nodeCrypto } from '@updown/verify/node';

const ROOT = path.join(import.meta.dirname, '..', '..', '..', '..');

/**
 * The README publishes the key set thumbprint of the compose file's local-only signing key, the
 * value a trader pins (docs/receipts.md, 6.1): it must be the thumbprint of the key set that
 * deployment serves, or pinning it would refuse every genuine receipt.
 */
describe('the published key set thumbprint', () => {
  it("is the thumbprint of the compose file's key set", async () => {
    const compose = await readFile(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const seeds = [...compose.matchAll(/SIGNING_KEY: \$\{SIGNING_KEY:-([A-Za-z0-9_-]+)\}/g)].map((m) => m[1]);
    expect(seeds.length).toBeGreaterThan(0);
    expect(new Set(seeds).size).toBe(1);
    const { keySet } = signingKeyFrom(parseSigningKey(seeds[0]!));
    const thumbprint = await keySetThumbprint(nodeCrypto, keySet);
    const readme = (await readFile(path.join(ROOT, 'README.md'), 'utf8')).replace(/\s+/g, ' ');
    expect(readme).toContain(`has the thumbprint \`${thumbprint}\``);
  });
});
