/**
 * docs/receipts.md is the public format: its worked examples are checked here, so a third party
 * implementing from it gets the same bytes, hashes and signatures as the platform.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical.js';
import { nodeCrypto } from '../src/node-crypto.js';
import { verifyReceipt } from '../src/verify-receipt.js';
import { CHECKPOINT_1_2, RFC8032_KEY_SET, RFC8032_TEST_1, TICK_1, TICK_2 } from './vectors.js';

const DOC = path.join(import.meta.dirname, '..', '..', 'docs', 'receipts.md');
const CLI = path.join(import.meta.dirname, '..', 'src', 'cli.js');

/** The code blocks marked `<!-- example: name -->` in the document. */
async function examples(): Promise<Map<string, string>> {
  const text = await readFile(DOC, 'utf8');
  const found = new Map<string, string>();
  for (const match of text.matchAll(/<!-- example: (\S+) -->\n\n?```[a-z]*\n([\s\S]*?)\n```/g)) {
    found.set(match[1] as string, match[2] as string);
  }
  return found;
}

function example(all: Map<string, string>, name: string): string {
  const text = all.get(name);
  if (text === undefined) throw new Error(`docs/receipts.md has no example ${name}`);
  return text;
}

function has(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

describe('docs/receipts.md', () => {
  let all = new Map<string, string>();
  let dir = '';

  beforeAll(async () => {
    all = await examples();
    dir = await mkdtemp(path.join(tmpdir(), 'updown-docs-'));
    await writeFile(path.join(dir, 'receipt.json'), example(all, 'receipt.json'));
    await writeFile(path.join(dir, 'keys.json'), example(all, 'keys.json'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the tick vectors and their hashes', async () => {
    const text = await readFile(DOC, 'utf8');
    expect(example(all, 'tick-1')).toBe(TICK_1.content);
    expect(example(all, 'tick-2')).toBe(TICK_2.content);
    expect(sha256(TICK_1.content).toString('hex')).toBe(TICK_1.hash);
    expect(sha256(TICK_2.content).toString('hex')).toBe(TICK_2.hash);
    expect(text).toContain(TICK_1.hash);
    expect(text).toContain(TICK_2.hash);
  });

  it('shows the checkpoint canonical text and its signature by the RFC 8032 test key', () => {
    expect(example(all, 'checkpoint-canonical')).toBe(CHECKPOINT_1_2.canonical);
    expect(canonicalJson(CHECKPOINT_1_2.checkpoint)).toBe(CHECKPOINT_1_2.canonical);
    expect(example(all, 'checkpoint-signature')).toBe(CHECKPOINT_1_2.signature.sig);
  });

  it('shows the thumbprint input, its SHA-256 and the kid', async () => {
    const text = await readFile(DOC, 'utf8');
    const input = example(all, 'thumbprint-input');
    expect(input).toBe(`{"crv":"Ed25519","kty":"OKP","x":"${RFC8032_TEST_1.x}"}`);
    expect(text).toContain(sha256(input).toString('hex'));
    expect(sha256(input).toString('base64url')).toBe(RFC8032_TEST_1.thumbprint);
    expect(JSON.parse(example(all, 'keys.json'))).toEqual(RFC8032_KEY_SET);
  });

  it('holds a complete receipt that verifies', async () => {
    const result = await verifyReceipt(JSON.parse(example(all, 'receipt.json')), RFC8032_KEY_SET, nodeCrypto);
    expect(result.verdict).toBe('valid');
    expect(result.steps.every((step) => step.status === 'ok')).toBe(true);
  });

  it('names the tampering its last paragraph describes', async () => {
    const text = (await readFile(DOC, 'utf8')).replace(/\s+/g, ' ');
    const doc = JSON.parse(example(all, 'receipt.json'));
    doc.proof.exit.segment[0].price = '95031.08';
    const chain = await verifyReceipt(doc, RFC8032_KEY_SET, nodeCrypto);
    expect(text).toContain(`\`${chain.firstFailure}\``);
    const pnl = JSON.parse(example(all, 'receipt.json'));
    pnl.receipt.pnlCents = 900;
    const result = await verifyReceipt(pnl, RFC8032_KEY_SET, nodeCrypto);
    const detail = result.steps.find((step) => step.id === 'pnl')?.detail;
    expect(text).toContain(`\`pnl: ${detail}\``);
    expect(result.steps.find((step) => step.id === 'receipt-signature')?.status).toBe('fail');
  });

  it('shows what updown-verify prints for it', async () => {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [CLI, 'receipt.json', '--keys', 'keys.json'], { cwd: dir }, (error, out) =>
        error ? reject(error) : resolve(out),
      );
    });
    expect(stdout.trimEnd()).toBe(example(all, 'cli-output'));
  });

  it.skipIf(!has('python3', ['--version']) || !has('openssl', ['version']))(
    'holds a Python and openssl script that verifies it and refuses a tampered copy',
    async () => {
      const script = path.join(dir, 'verify_receipt.py');
      await writeFile(script, example(all, 'verify_receipt.py'));
      const run = (receipt: string) =>
        new Promise<{ code: number; stdout: string }>((resolve) => {
          execFile('python3', [script, receipt, 'keys.json'], { cwd: dir }, (error, stdout) =>
            resolve({ code: error ? Number(error.code) : 0, stdout }),
          );
        });
      const valid = await run('receipt.json');
      expect(valid).toEqual({ code: 0, stdout: expect.stringMatching(/\nVALID\n$/) });
      const doc = JSON.parse(example(all, 'receipt.json'));
      doc.receipt.pnlCents = 900;
      await writeFile(path.join(dir, 'tampered.json'), JSON.stringify(doc));
      const tampered = await run('tampered.json');
      expect(tampered.code).toBe(1);
      expect(tampered.stdout).toContain('✗ receipt-signature: signature does not verify with key');
      expect(tampered.stdout).toContain('receipt pnlCents is 900, the rules give 825');
    },
  );
});
