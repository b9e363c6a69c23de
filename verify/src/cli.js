#!/usr/bin/env node
// @ts-check
/**
 * updown-verify <receipt.json> [--keys <keyset.json>] [--pin <thumbprint>] [--json]
 * updown-verify --thumbprint <keyset.json>
 *
 * Verifies a settlement receipt with node:crypto and prints each step. Exit codes (EXIT below):
 * 0 valid against a pinned key set, 1 invalid, 2 unusable input, 3 valid only with the key set
 * the file brings along, which nothing pinned.
 */
import { readFile } from 'node:fs/promises';
import { keySetProblems, keySetThumbprint } from './keys.js';
import { nodeCrypto } from './node-crypto.js';
import { verifyReceipt } from './verify-receipt.js';

/** @typedef {import('./keys.js').KeySet} KeySet */
/** @typedef {import('./verify-receipt.js').VerificationResult} VerificationResult */

/** The exit codes, one per way a run can end. */
const EXIT = /** @type {const} */ ({ valid: 0, invalid: 1, unusable: 2, unpinned: 3 });

const USAGE = `Usage: updown-verify <receipt.json> [--keys <keyset.json>] [--pin <thumbprint>] [--json]
       updown-verify --thumbprint <keyset.json>

Verifies an Updown settlement receipt: its signature, the signed checkpoints of its proof, the
tick hash chain from the receipt's entry and exit ticks to those checkpoints, the entry and exit
tick rules, its ids and times, and the outcome and profit recomputed from the settlement rules.

Options:
  --keys <file>         the key set, saved from https://<host>/.well-known/updown-keys.json
  --pin <thumbprint>    the key set thumbprint the platform publishes (its site and README): the
                        key set used, from --keys or bundled in the receipt file, must have it
  --thumbprint <file>   print the thumbprint of a key set file and exit
  --json                print the result as JSON
  -h, --help            print this help

Without --keys, a "keys" member of the receipt file is used: the key set bundled when the
receipt was downloaded. Unless --pin matches it, that only shows the file agrees with itself.

Exit codes: 0 valid against a pinned key set (--keys, or --pin), 1 invalid, 2 unusable input
(unreadable file, not JSON, wrong shape, no key set, a key set refused or not the pinned one),
3 signature valid with the file's own key, not verified against the platform's.
Format: docs/receipts.md.`;

const NO_KEY_SET = 'no key set: pass --keys <file> (saved from /.well-known/updown-keys.json)';
/** What a run says of a receipt that is valid only against the key set its own file brings. */
const UNPINNED = "signature valid with the file's own key — NOT verified against the platform's key";

/** @type {Record<import('./verify-receipt.js').StepStatus, string>} */
const MARKS = { ok: '✓', fail: '✗', warn: '!', skipped: '-' };

/** A problem with the input: exit code 2. */
class UnusableInput extends Error {}

/**
 * @typedef {{ mode: 'help' } | { mode: 'thumbprint', keysFile: string }
 *   | { mode: 'verify', receiptFile: string, keysFile: string | undefined, pin: string | undefined, json: boolean }} Options
 */

/**
 * @param {string[]} args
 * @returns {Options}
 */
function parseArgs(args) {
  /** @type {string[]} */
  const files = [];
  /** @type {Record<'keys' | 'pin' | 'thumbprint', string | undefined>} */
  const values = { keys: undefined, pin: undefined, thumbprint: undefined };
  let json = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = /** @type {string} */ (args[index]);
    if (arg === '-h' || arg === '--help') return { mode: 'help' };
    const named = /^--(keys|pin|thumbprint)(?:=(.*))?$/.exec(arg);
    if (arg === '--json') json = true;
    else if (named) {
      const name = /** @type {'keys' | 'pin' | 'thumbprint'} */ (named[1]);
      const value = named[2] ?? args[index + 1];
      if (value === undefined || value === '') throw new UnusableInput(`--${name} needs a value`);
      if (named[2] === undefined) index += 1;
      values[name] = value;
    } else if (arg.startsWith('-') && arg !== '-') throw new UnusableInput(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (values.thumbprint !== undefined) {
    if (files.length > 0 || values.keys !== undefined || values.pin !== undefined || json) {
      throw new UnusableInput('--thumbprint takes a key set file and nothing else');
    }
    return { mode: 'thumbprint', keysFile: values.thumbprint };
  }
  const [receiptFile, ...extra] = files;
  if (receiptFile === undefined) throw new UnusableInput('no receipt file given');
  if (extra.length > 0)
    throw new UnusableInput(`one receipt file at a time (also given: ${extra.join(' ')})`);
  return { mode: 'verify', receiptFile, keysFile: values.keys, pin: values.pin, json };
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
 * A key set that may be used: the right shape, no kid twice.
 *
 * @param {unknown} keySet
 * @param {string} where
 * @returns {Promise<{ keySet: KeySet, thumbprint: string }>}
 */
async function usableKeySet(keySet, where) {
  const problems = keySetProblems(keySet);
  if (problems.length > 0) throw new UnusableInput(`key set ${where}: ${problems.join('; ')}`);
  const valid = /** @type {KeySet} */ (keySet);
  return { keySet: valid, thumbprint: await keySetThumbprint(nodeCrypto, valid) };
}

/**
 * @param {string[]} args
 * @returns {Promise<number>} the exit code
 */
async function main(args) {
  /** @type {Options} */
  let options;
  try {
    options = parseArgs(args);
  } catch (error) {
    process.stderr.write(
      `updown-verify: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`,
    );
    return EXIT.unusable;
  }
  if (options.mode === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.valid;
  }
  const json = options.mode === 'verify' && options.json;
  try {
    if (options.mode === 'thumbprint') {
      const { thumbprint } = await usableKeySet(
        await readJson(options.keysFile, 'key set file'),
        options.keysFile,
      );
      process.stdout.write(`${thumbprint}\n`);
      return EXIT.valid;
    }
    return await verifyFile(options);
  } catch (error) {
    if (!(error instanceof UnusableInput)) throw error;
    if (json) {
      /** @type {VerificationResult} */
      const unusable = { verdict: 'unusable', steps: [], firstFailure: error.message };
      process.stdout.write(`${JSON.stringify(unusable, null, 2)}\n`);
    }
    process.stderr.write(`updown-verify: ${error.message}\n`);
    return EXIT.unusable;
  }
}

/**
 * Verifies the receipt file against the key set the options name, and says whether that key set
 * was pinned: by --keys (the trader fetched it from the platform) or by --pin (its thumbprint is
 * the one the platform publishes). A key set the file brings along pins nothing: whoever wrote the
 * file chose it, so a valid signature by it is reported apart, with its own exit code.
 *
 * @param {Extract<Options, { mode: 'verify' }>} options
 * @returns {Promise<number>}
 */
async function verifyFile(options) {
  const { json, pin } = options;
  /** @param {string} line */
  const note = (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const document = await readJson(options.receiptFile, 'receipt file');
  const bundled = options.keysFile === undefined;
  const raw =
    options.keysFile === undefined
      ? bundledKeySet(document)
      : await readJson(options.keysFile, 'key set file');
  if (raw === undefined) throw new UnusableInput(NO_KEY_SET);
  const where = bundled ? 'bundled in the receipt file' : /** @type {string} */ (options.keysFile);
  const { keySet, thumbprint } = await usableKeySet(raw, where);
  if (pin !== undefined && pin !== thumbprint) {
    throw new UnusableInput(`the key set ${where} has the thumbprint ${thumbprint}, not the pinned ${pin}`);
  }
  const pinned = !bundled || pin !== undefined;
  if (!bundled) note(`Key set: ${where}, thumbprint ${thumbprint}`);
  else if (pinned) note(`Key set: ${where}, thumbprint ${thumbprint}, the pinned one`);
  else {
    note(`Key set: ${where}, thumbprint ${thumbprint}, not pinned: whoever wrote the file chose it.`);
    note(`  The receipt names the signing key kid ${signatureKid(document) ?? '(none)'}.`);
  }
  const result = await verifyReceipt(document, keySet, nodeCrypto);
  const unpinnedValid = result.verdict === 'valid' && !pinned;
  if (json) {
    const keySetReport = { source: bundled ? 'bundled' : 'file', thumbprint, pinned };
    process.stdout.write(`${JSON.stringify({ ...result, keySet: keySetReport }, null, 2)}\n`);
  } else printResult(result, unpinnedValid);
  if (unpinnedValid) {
    note(
      `  To verify against the platform's key, compare ${thumbprint} with the key set thumbprint the platform ` +
        'publishes and run again with --pin <thumbprint>, or with --keys <file> saved from ' +
        'https://<host>/.well-known/updown-keys.json.',
    );
    return EXIT.unpinned;
  }
  return EXIT[result.verdict];
}

/**
 * @param {VerificationResult} result
 * @param {boolean} unpinnedValid valid, but only against the file's own key set
 */
function printResult(result, unpinnedValid) {
  const lines = result.steps.map(
    (step) => `${MARKS[step.status]} ${step.title} (${step.id}): ${step.detail}`,
  );
  if (unpinnedValid) lines.push(`NOT VERIFIED: ${UNPINNED}`);
  else if (result.verdict === 'valid') lines.push('VALID');
  else if (result.verdict === 'invalid') lines.push(`INVALID: ${result.firstFailure ?? ''}`);
  else lines.push(`UNUSABLE INPUT: ${result.firstFailure ?? ''}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

process.exitCode = await main(process.argv.slice(2));
