/**
 * docs/receipts.md is the public format: its worked examples are checked here, so a third party
 * implementing from it gets the same bytes, hashes and signatures as the platform.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical.js';
import { tickContent, verifySegment, type Tick } from '../src/chain.js';
import { receiptIdFor } from '../src/consistency.js';
import { keySetThumbprint, type KeySet } from '../src/keys.js';
import { nodeCrypto } from '../src/node-crypto.js';
import { verifyReceipt, type ReceiptDocument, type VerificationResult } from '../src/verify-receipt.js';
import {
  CHECKPOINT_1_2,
  RFC8032_KEY_SET,
  RFC8032_KEY_SET_THUMBPRINT,
  RFC8032_KEY_SET_THUMBPRINT_INPUT,
  RFC8032_TEST_1,
  TICK_1,
  TICK_2,
} from './vectors.js';

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

/** The RFC 8032 test key 1 as a private key: PKCS#8 DER is a fixed prefix and the 32-byte seed. */
const TEST_KEY = createPrivateKey({
  key: Buffer.concat([
    Buffer.from('302e020100300506032b657004220420', 'hex'),
    Buffer.from(RFC8032_TEST_1.secretHex, 'hex'),
  ]),
  format: 'der',
  type: 'pkcs8',
});

/**
 * A worked example of section 11.1: the complete receipt with the members the patch names (by
 * path) replaced, `keys` standing for the key set's keys, and the receipt signed again with the
 * test key when the patch changed it.
 */
function variantOf(
  base: ReceiptDocument,
  patch: Record<string, unknown>,
): { doc: ReceiptDocument; keySet: KeySet } {
  const doc = structuredClone(base);
  let keySet: KeySet = structuredClone(RFC8032_KEY_SET);
  for (const [path, value] of Object.entries(patch)) {
    if (path === 'keys') {
      keySet = { keys: value as KeySet['keys'] };
      continue;
    }
    const parts = path.split('.');
    const parent = parts
      .slice(0, -1)
      .reduce<Record<string, unknown>>((node, part) => node[part] as Record<string, unknown>, doc as never);
    parent[parts.at(-1) as string] = structuredClone(value);
  }
  if (Object.keys(patch).some((path) => path.startsWith('receipt.'))) {
    const text = Buffer.from(canonicalJson(doc.receipt), 'utf8');
    doc.signature = { ...doc.signature, sig: sign(null, text, TEST_KEY).toString('base64url') };
  }
  return { doc, keySet };
}

/** The last line updown-verify prints for a result checked against a pinned key set. */
function verdictLine(result: VerificationResult): string {
  if (result.verdict === 'valid') return 'VALID';
  return `${result.verdict === 'invalid' ? 'INVALID' : 'UNUSABLE INPUT'}: ${result.firstFailure ?? ''}`;
}

const variantNames = (all: Map<string, string>) =>
  [...all.keys()].filter((name) => name.startsWith('variant:')).map((name) => name.slice('variant:'.length));

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

  it('shows a tick not later than the one before it, and the problem it is refused with', async () => {
    const content = example(all, 'tick-3-not-later');
    const tick3: Tick = { seq: 3, atMs: TICK_2.atMs, price: '95031.07', prevHash: TICK_2.hash, hash: '' };
    expect(tickContent({ pair: 'BTCUSDT', ...tick3 })).toBe(content);
    tick3.hash = sha256(content).toString('hex');
    expect(await readFile(DOC, 'utf8')).toContain(tick3.hash);
    const ticks: Tick[] = [TICK_1, TICK_2].map(({ seq, atMs, price, prevHash, hash }) => ({
      seq,
      atMs,
      price,
      prevHash,
      hash,
    }));
    const problems = await verifySegment(nodeCrypto, 'BTCUSDT', [...ticks, tick3], {
      toSeq: 3,
      headHash: tick3.hash,
    });
    expect(problems).toEqual([example(all, 'tick-3-not-later-problem')]);
  });

  it('shows the key set thumbprint of the example key set, with its input and SHA-256', async () => {
    const input = example(all, 'key-set-thumbprint-input');
    expect(input).toBe(RFC8032_KEY_SET_THUMBPRINT_INPUT);
    expect(await readFile(DOC, 'utf8')).toContain(sha256(input).toString('hex'));
    expect(sha256(input).toString('base64url')).toBe(RFC8032_KEY_SET_THUMBPRINT);
    expect(example(all, 'key-set-thumbprint')).toBe(RFC8032_KEY_SET_THUMBPRINT);
    expect(await keySetThumbprint(nodeCrypto, JSON.parse(example(all, 'keys.json')))).toBe(
      RFC8032_KEY_SET_THUMBPRINT,
    );
  });

  it("derives the example's receipt id as shown", async () => {
    const input = example(all, 'receipt-id-input');
    const { receipt } = JSON.parse(example(all, 'receipt.json')) as ReceiptDocument;
    expect(input).toBe(`updown.receipt.v1:${receipt.tradeId}`);
    expect(await readFile(DOC, 'utf8')).toContain(sha256(input).toString('hex'));
    expect(await receiptIdFor(nodeCrypto, receipt.tradeId)).toBe(example(all, 'receipt-id'));
    expect(receipt.receiptId).toBe(example(all, 'receipt-id'));
  });

  it('gives each worked example of a rule the verdict it shows', async () => {
    const base = JSON.parse(example(all, 'receipt.json')) as ReceiptDocument;
    const names = variantNames(all);
    expect(names.length).toBeGreaterThanOrEqual(11);
    for (const name of names) {
      const { doc, keySet } = variantOf(base, JSON.parse(example(all, `variant:${name}`)));
      const result = await verifyReceipt(doc, keySet, nodeCrypto);
      expect(verdictLine(result), name).toBe(example(all, `result:${name}`));
    }
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

  it('shows what updown-verify prints, and its exit code 3, for the file with its own key set', async () => {
    const doc = JSON.parse(example(all, 'receipt.json')) as Record<string, unknown>;
    doc.keys = (JSON.parse(example(all, 'keys.json')) as KeySet).keys;
    await writeFile(path.join(dir, 'bundled.json'), JSON.stringify(doc));
    const run = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, [CLI, 'bundled.json'], { cwd: dir }, (error, stdout) =>
        resolve({ code: error ? Number(error.code) : 0, stdout }),
      );
    });
    expect(run.code).toBe(3);
    expect(run.stdout.trimEnd()).toBe(example(all, 'cli-output-bundled'));
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
      // The worked examples of section 11.1: the script reaches the verifier's verdict on each.
      const base = JSON.parse(example(all, 'receipt.json')) as ReceiptDocument;
      for (const name of variantNames(all)) {
        const { doc: variant, keySet } = variantOf(base, JSON.parse(example(all, `variant:${name}`)));
        await writeFile(path.join(dir, 'variant.json'), JSON.stringify(variant));
        await writeFile(path.join(dir, 'variant-keys.json'), JSON.stringify(keySet));
        const checked = await new Promise<number>((resolve) => {
          execFile('python3', [script, 'variant.json', 'variant-keys.json'], { cwd: dir }, (error) =>
            resolve(error ? Number(error.code) : 0),
          );
        });
        const verdict = example(all, `result:${name}`);
        expect(checked, name).toBe(verdict === 'VALID' ? 0 : verdict.startsWith('INVALID') ? 1 : 2);
      }
    },
    120_000,
  );
});
