import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tick } from '../src/chain.js';
import { keySetThumbprint } from '../src/keys.js';
import { nodeCrypto } from '../src/node-crypto.js';
import { createSigner, keySetOf, sampleReceipt } from './fixtures.js';

const CLI = path.join(import.meta.dirname, '..', 'src', 'cli.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('updown-verify', () => {
  const signer = createSigner();
  let thumbprint = '';
  let dir = '';
  const file = (name: string) => path.join(dir, name);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'updown-verify-'));
    thumbprint = await keySetThumbprint(nodeCrypto, keySetOf(signer));
    const doc = sampleReceipt(signer);
    await writeFile(file('receipt.json'), JSON.stringify(doc, null, 2));
    await writeFile(file('keys.json'), JSON.stringify(keySetOf(signer)));
    await writeFile(file('bundled.json'), JSON.stringify({ ...doc, keys: [signer.jwk] }));
    const tampered = structuredClone(doc);
    const tick = tampered.proof.exit?.segment[2] as Tick;
    tick.price = '99999.99';
    await writeFile(file('tampered.json'), JSON.stringify(tampered));
    await writeFile(file('not-json.json'), '{"receipt": ');
    await writeFile(file('wrong-shape.json'), JSON.stringify({ receipt: { type: 'updown.receipt.v1' } }));
    // A forgery: receipt and checkpoints signed by someone else, who bundles their own key.
    const forger = createSigner();
    const forged = sampleReceipt(forger);
    await writeFile(file('forged.json'), JSON.stringify({ ...forged, keys: [forger.jwk] }));
    await writeFile(file('twice.json'), JSON.stringify({ keys: [signer.jwk, { ...signer.jwk }] }));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 and prints every step and VALID for a valid receipt', async () => {
    const { code, stdout } = await run(file('receipt.json'), '--keys', file('keys.json'));
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(`Key set: ${file('keys.json')}, thumbprint ${thumbprint}`);
    expect(lines.filter((line) => line.startsWith('✓ '))).toHaveLength(11);
    expect(stdout).toContain(`✓ Receipt signature (receipt-signature): signed by key ${signer.kid}`);
    expect(lines.at(-1)).toBe('VALID');
  });

  it("exits 3 for a receipt valid only with the file's own key set, and says it is not verified", async () => {
    const { code, stdout } = await run(file('bundled.json'));
    expect(code).toBe(3);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(
      `Key set: bundled in the receipt file, thumbprint ${thumbprint}, not pinned: whoever wrote the file chose it.`,
    );
    expect(stdout).toContain(`kid ${signer.kid}`);
    expect(stdout).not.toMatch(/^VALID$/m);
    expect(stdout).toContain(
      "NOT VERIFIED: signature valid with the file's own key — NOT verified against the platform's key",
    );
    expect(lines.at(-1)).toContain(
      `compare ${thumbprint} with the key set thumbprint the platform publishes`,
    );
  });

  it('exits 3 for a forgery signed with the key it brings along, and 2 once the real key set is pinned', async () => {
    const alone = await run(file('forged.json'));
    expect(alone.code).toBe(3);
    const pinned = await run(file('forged.json'), '--pin', thumbprint);
    expect(pinned.code).toBe(2);
    expect(pinned.stderr).toMatch(
      new RegExp(
        `the key set bundled in the receipt file has the thumbprint \\S+, not the pinned ${thumbprint}`,
      ),
    );
    const withKeys = await run(file('forged.json'), '--keys', file('keys.json'));
    expect(withKeys.code).toBe(1);
    expect(withKeys.stdout).toContain('INVALID: receipt-signature: signature kid');
  });

  it('exits 0 for the bundled key set when --pin names its thumbprint', async () => {
    const { code, stdout } = await run(file('bundled.json'), `--pin=${thumbprint}`);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe(
      `Key set: bundled in the receipt file, thumbprint ${thumbprint}, the pinned one`,
    );
    expect(stdout.trim().split('\n').at(-1)).toBe('VALID');
    expect((await run(file('receipt.json'), '--keys', file('keys.json'), '--pin', 'other')).code).toBe(2);
  });

  it('prints the thumbprint of a key set with --thumbprint, and refuses a kid listed twice', async () => {
    const printed = await run('--thumbprint', file('keys.json'));
    expect(printed).toEqual({ code: 0, stdout: `${thumbprint}\n`, stderr: '' });
    const twice = await run(file('receipt.json'), '--keys', file('twice.json'));
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`keys[1].kid ${signer.kid} is also the kid of keys[0]`);
    expect((await run('--thumbprint', file('twice.json'))).code).toBe(2);
    expect((await run('--thumbprint', file('keys.json'), file('receipt.json'))).code).toBe(2);
  });

  it('prints the result object with --json', async () => {
    const { code, stdout } = await run('--json', file('receipt.json'), `--keys=${file('keys.json')}`);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      verdict: string;
      steps: { id: string; status: string }[];
      keySet: { source: string; thumbprint: string; pinned: boolean };
    };
    expect(result.verdict).toBe('valid');
    expect(result.steps).toHaveLength(11);
    expect(result.keySet).toEqual({ source: 'file', thumbprint, pinned: true });
    const bundled = await run('--json', file('bundled.json'));
    expect(bundled.code).toBe(3);
    expect(JSON.parse(bundled.stdout)).toMatchObject({ verdict: 'valid', keySet: { pinned: false } });
  });

  it('exits 1 for a tampered receipt, naming the step and the tick', async () => {
    const { code, stdout } = await run(file('tampered.json'), '--keys', file('keys.json'));
    expect(code).toBe(1);
    expect(stdout).toContain(
      '✗ Exit tick chain (exit-chain): exit segment: tick 22 hash does not match its content',
    );
    expect(stdout.trim().split('\n').at(-1)).toBe(
      'INVALID: exit-chain: exit segment: tick 22 hash does not match its content',
    );
  });

  it('exits 2 for a file that is not JSON', async () => {
    const { code, stderr } = await run(file('not-json.json'), '--keys', file('keys.json'));
    expect(code).toBe(2);
    expect(stderr).toContain(`receipt file ${file('not-json.json')} is not JSON`);
  });

  it('exits 2 for a missing file', async () => {
    const { code, stderr } = await run(file('missing.json'), '--keys', file('keys.json'));
    expect(code).toBe(2);
    expect(stderr).toContain(`cannot read receipt file ${file('missing.json')} (ENOENT)`);
  });

  it('exits 2 without a key set', async () => {
    const { code, stderr } = await run(file('receipt.json'));
    expect(code).toBe(2);
    expect(stderr).toContain('no key set: pass --keys <file> (saved from /.well-known/updown-keys.json)');
  });

  it('exits 2 for a document of the wrong shape, naming the field', async () => {
    const { code, stdout } = await run(file('wrong-shape.json'), '--keys', file('keys.json'));
    expect(code).toBe(2);
    expect(stdout).toContain('✗ Document format (format): receipt.receiptId is missing');
    expect(stdout).toContain('UNUSABLE INPUT: format: ');
  });

  it('exits 2 for a key set of the wrong shape, and for a bad command line', async () => {
    expect((await run(file('receipt.json'), '--keys', file('receipt.json'))).code).toBe(2);
    expect((await run(file('receipt.json'), '--keys')).code).toBe(2);
    expect((await run('--frobnicate', file('receipt.json'))).code).toBe(2);
    expect((await run()).code).toBe(2);
  });

  it('prints its usage with --help', async () => {
    const { code, stdout } = await run('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^Usage: updown-verify <receipt\.json> \[--keys <keyset\.json>\] \[--pin <thumbprint>\] \[--json\]/,
    );
    expect(stdout).toContain("3 signature valid with the file's own key");
  });
});
