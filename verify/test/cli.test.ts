import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tick } from '../src/chain.js';
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
  let dir = '';
  const file = (name: string) => path.join(dir, name);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'updown-verify-'));
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
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 and prints every step and VALID for a valid receipt', async () => {
    const { code, stdout } = await run(file('receipt.json'), '--keys', file('keys.json'));
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(`Key set: ${file('keys.json')}`);
    expect(lines.filter((line) => line.startsWith('✓ '))).toHaveLength(10);
    expect(stdout).toContain(`✓ Receipt signature (receipt-signature): signed by key ${signer.kid}`);
    expect(lines.at(-1)).toBe('VALID');
  });

  it('uses a key set bundled in the receipt file, says so and prints the kid', async () => {
    const { code, stdout } = await run(file('bundled.json'));
    expect(code).toBe(0);
    expect(stdout).toContain('Key set: bundled in the receipt file');
    expect(stdout).toContain(`kid ${signer.kid}`);
    expect(stdout.trim().split('\n').at(-1)).toBe('VALID');
  });

  it('prints the result object with --json', async () => {
    const { code, stdout } = await run('--json', file('receipt.json'), `--keys=${file('keys.json')}`);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { verdict: string; steps: { id: string; status: string }[] };
    expect(result.verdict).toBe('valid');
    expect(result.steps).toHaveLength(10);
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
    expect(stdout).toMatch(/^Usage: updown-verify <receipt\.json> \[--keys <keyset\.json>\] \[--json\]/);
  });
});
