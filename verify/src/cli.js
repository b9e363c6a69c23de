#!/usr/bin/env node
// @ts-check
/**
 * updown-verify <receipt.json> [--keys <keyset.json>] [--json]
 *
 * Verifies a settlement receipt with node:crypto and prints each step. Exit codes: 0 valid,
 * 1 invalid, 2 unusable input (unreadable file, not JSON, wrong shape, no key set).
 */
import { readFile } from 'node:fs/promises';
import { keySetProblems } from './keys.js';
import { nodeCrypto } from './node-crypto.js';
import { verifyReceipt } from './verify-receipt.js';

/** @typedef {import('./keys.js').KeySet} KeySet */
/** @typedef {import('./verify-receipt.js').VerificationResult} VerificationResult */

const USAGE = `Usage: updown-verify <receipt.json> [--keys <keyset.json>] [--json]

Verifies an Updown settlement receipt: its signature, the signed checkpoints of its proof, the
tick hash chain from the receipt's entry and exit ticks to those checkpoints, the exit tick rule,
and the outcome and profit recomputed from the settlement rules.

Options:
  --keys <file>  the key set, saved from https://<host>/.well-known/updown-keys.json
                 (without it, a "keys" member of the receipt file is used: the key set
                 bundled when the receipt was downloaded)
  --json         print the result as JSON
  -h, --help     print this help

Exit codes: 0 valid, 1 invalid, 2 unusable input (unreadable file, not JSON, wrong shape,
no key set). Format: docs/receipts.md.`;

const NO_KEY_SET = 'no key set: pass --keys <file> (saved from /.well-known/updown-keys.json)';

/** @type {Record<import('./verify-receipt.js').StepStatus, string>} */
const MARKS = { ok: '✓', fail: '✗', warn: '!', skipped: '-' };

/** A problem with the input: exit code 2. */
class UnusableInput extends Error {}

/**
 * @param {string[]} args
 * @returns {{ help: true } | { help: false, receiptFile: string, keysFile: string | undefined, json: boolean }}
 */
function parseArgs(args) {
  /** @type {string[]} */
  const files = [];
  /** @type {string | undefined} */
  let keysFile;
  let json = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = /** @type {string} */ (args[index]);
    if (arg === '-h' || arg === '--help') return { help: true };
    if (arg === '--json') json = true;
    else if (arg === '--keys') {
      keysFile = args[index + 1];
      if (keysFile === undefined) throw new UnusableInput('--keys needs a file');
      index += 1;
    } else if (arg.startsWith('--keys=')) keysFile = arg.slice('--keys='.length);
    else if (arg.startsWith('-') && arg !== '-') throw new UnusableInput(`unknown option ${arg}`);
    else files.push(arg);
  }
  const [receiptFile, ...extra] = files;
  if (receiptFile === undefined) throw new UnusableInput('no receipt file given');
  if (extra.length > 0)
    throw new UnusableInput(`one receipt file at a time (also given: ${extra.join(' ')})`);
  return { help: false, receiptFile, keysFile, json };
}

/**
 * @param {string} file
 * @param {string} what
 * @returns {Promise<unknown>}
 */
async function readJson(file, what) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = /** @type {{ code?: unknown }} */ (error).code;
    throw new UnusableInput(`cannot read ${what} ${file}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UnusableInput(
      `${what} ${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * The key set of a receipt file's `keys` member: the keys array itself, or a whole key set.
 *
 * @param {unknown} document
 * @returns {unknown}
 */
function bundledKeySet(document) {
  if (typeof document !== 'object' || document === null || !('keys' in document)) return undefined;
  const keys = document.keys;
  return Array.isArray(keys) ? { keys } : keys;
}

/**
 * @param {unknown} document
 * @returns {string | undefined}
 */
function signatureKid(document) {
  const signature = /** @type {{ signature?: { kid?: unknown } } | null} */ (document)?.signature;
  return typeof signature?.kid === 'string' ? signature.kid : undefined;
}

/**
 * @param {string[]} args
 * @returns {Promise<number>} the exit code
 */
async function main(args) {
  /** @type {ReturnType<typeof parseArgs>} */
  let options;
  try {
    options = parseArgs(args);
  } catch (error) {
    process.stderr.write(
      `updown-verify: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`,
    );
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { json } = options;
  /** @param {string} line */
  const note = (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  try {
    const document = await readJson(options.receiptFile, 'receipt file');
    /** @type {unknown} */
    let keySet;
    if (options.keysFile !== undefined) {
      keySet = await readJson(options.keysFile, 'key set file');
      note(`Key set: ${options.keysFile}`);
    } else {
      keySet = bundledKeySet(document);
      if (keySet === undefined) throw new UnusableInput(NO_KEY_SET);
      note('Key set: bundled in the receipt file when it was downloaded, not fetched from the server.');
      const kid = signatureKid(document);
      note(
        `  The receipt names the signing key kid ${kid ?? '(none)'}: check that the published key set ` +
          '(/.well-known/updown-keys.json) lists it, or pass --keys <file> to verify against a saved copy.',
      );
    }
    const keyProblems = keySetProblems(keySet);
    if (keyProblems.length > 0) throw new UnusableInput(`key set: ${keyProblems.join('; ')}`);
    const result = await verifyReceipt(document, /** @type {KeySet} */ (keySet), nodeCrypto);
    if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else printResult(result);
    return result.verdict === 'valid' ? 0 : result.verdict === 'invalid' ? 1 : 2;
  } catch (error) {
    if (!(error instanceof UnusableInput)) throw error;
    if (json) {
      /** @type {VerificationResult} */
      const unusable = { verdict: 'unusable', steps: [], firstFailure: error.message };
      process.stdout.write(`${JSON.stringify(unusable, null, 2)}\n`);
    }
    process.stderr.write(`updown-verify: ${error.message}\n`);
    return 2;
  }
}

/** @param {VerificationResult} result */
function printResult(result) {
  const lines = result.steps.map(
    (step) => `${MARKS[step.status]} ${step.title} (${step.id}): ${step.detail}`,
  );
  if (result.verdict === 'valid') lines.push('VALID');
  else if (result.verdict === 'invalid') lines.push(`INVALID: ${result.firstFailure ?? ''}`);
  else lines.push(`UNUSABLE INPUT: ${result.firstFailure ?? ''}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

process.exitCode = await main(process.argv.slice(2));
