// @ts-check
/**
 * Verification of a settlement receipt and of signed checkpoints (docs/receipts.md,
 * "Verification steps"). Every step reports ok, fail, warn or skipped with a detail that names
 * what differs; a document of the wrong shape is unusable and nothing else is checked, any other
 * failure makes it invalid and the later steps still run, so every problem is named.
 */
import { canonicalJson } from './canonical.js';
import { GENESIS_HASH, isPriceText, verifySegment } from './chain.js';
import {
  givenTickOrderProblems,
  givenTicks,
  ledgerKeyFor,
  receiptIdFor,
  receiptTimeProblems,
  referenceTimeProblems,
} from './consistency.js';
import { keySetProblems, verifySignature } from './keys.js';
import {
  ENTRY_PRICE_AGE_MS_MAX,
  OUTCOMES,
  RULES,
  entryTickProblems,
  exitTickProblems,
  pnlCents,
  settlementRule,
} from './rules.js';

/** @typedef {import('./crypto-port.js').CryptoPort} CryptoPort */
/** @typedef {import('./chain.js').Tick} Tick */
/** @typedef {import('./keys.js').KeySet} KeySet */
/** @typedef {import('./keys.js').Signature} Signature */
/** @typedef {import('./rules.js').Direction} Direction */
/** @typedef {import('./rules.js').Outcome} Outcome */
/** @typedef {import('./rules.js').Rule} Rule */

/**
 * A signed statement that a pair's ticks `fromSeq`…`toSeq` end in `headHash`.
 *
 * @typedef {object} Checkpoint
 * @property {'updown.checkpoint.v1'} type
 * @property {string} pair
 * @property {number} fromSeq first tick covered
 * @property {number} toSeq last tick covered
 * @property {number} ticks toSeq - fromSeq + 1
 * @property {number} fromMs atMs of tick fromSeq
 * @property {number} toMs atMs of tick toSeq
 * @property {string} startHash prevHash of tick fromSeq (the previous checkpoint's headHash)
 * @property {string} headHash hash of tick toSeq
 * @property {number} signedAtMs
 */

/**
 * @typedef {object} SignedCheckpoint
 * @property {Checkpoint} checkpoint
 * @property {Signature} signature over canonicalJson(checkpoint)
 */

/**
 * What the receipt signs of a checkpoint: enough to bind the proof's checkpoint to it.
 *
 * @typedef {object} CheckpointRef
 * @property {number} toSeq
 * @property {string} headHash
 */

/**
 * @typedef {object} Receipt
 * @property {'updown.receipt.v1'} type
 * @property {string} receiptId
 * @property {string} tradeId
 * @property {string} userId
 * @property {string} pair
 * @property {Direction} direction
 * @property {'demo' | 'real'} account
 * @property {number} stakeCents
 * @property {number} payoutBasisPoints payout % × 100 (82.5% is 8250)
 * @property {number} acceptedAtMs
 * @property {number} expiryAtMs
 * @property {string} entryPrice canonical decimal string
 * @property {Tick | null} entryTick the stored tick the entry price came from
 * @property {Tick | null} exitTick the last tick with atMs <= expiryAtMs
 * @property {Tick | null} afterExpiryTick the first tick with atMs > expiryAtMs
 * @property {Outcome} outcome
 * @property {Rule} rule
 * @property {number} pnlCents
 * @property {string} ledgerKey
 * @property {string[]} ledgerEntryIds decimal strings
 * @property {number} settledAtMs
 * @property {{ entry: CheckpointRef | null, exit: CheckpointRef | null }} checkpoints
 * @property {number} issuedAtMs
 * @property {ReceiptReference} [reference] present when the pair had a reference feed at settlement
 */
/**
 * What the pair's reference feed said at the trade's acceptance and at its expiry (its price in
 * force then, as a decimal string; null when it had none in the 10 s before). Reference ticks are
 * not chained: the receipt's signature is what vouches for them.
 *
 * @typedef {object} ReceiptReference
 * @property {string} provider
 * @property {number} spreadBps
 * @property {string | null} entryPrice
 * @property {number | null} entryAtMs
 * @property {string | null} expiryPrice
 * @property {number | null} expiryAtMs
 */

/**
 * A checkpoint and the run of ticks from a receipt's tick up to the checkpoint's last tick.
 *
 * @typedef {object} SegmentProof
 * @property {SignedCheckpoint} checkpoint
 * @property {Tick[]} segment
 */

/**
 * The document `GET /api/trades/{id}/receipt` returns.
 *
 * @typedef {object} ReceiptDocument
 * @property {Receipt} receipt
 * @property {Signature} signature over canonicalJson(receipt)
 * @property {{ entry: SegmentProof | null, exit: SegmentProof | null }} proof
 */

/** @typedef {'format' | 'receipt-signature' | 'checkpoint-signatures' | 'checkpoint-binding' | 'entry-chain' | 'exit-chain' | 'exit-tick-rule' | 'entry-tick-rule' | 'consistency' | 'outcome' | 'pnl'} StepId */
/** @typedef {'ok' | 'fail' | 'warn' | 'skipped'} StepStatus */

/**
 * @typedef {object} VerificationStep
 * @property {StepId} id
 * @property {string} title
 * @property {StepStatus} status
 * @property {string} detail
 */

/**
 * @typedef {object} VerificationResult
 * @property {'valid' | 'invalid' | 'unusable'} verdict valid when no step failed (warnings allowed)
 * @property {VerificationStep[]} steps
 * @property {string} [firstFailure] `<step id>: <detail>` of the first failed step
 */

/**
 * @typedef {object} CheckpointCheck
 * @property {boolean} valid
 * @property {string[]} problems empty when valid
 */

/** The steps in the order they run, with their titles. */
export const STEPS = /** @type {const} */ ([
  ['format', 'Document format'],
  ['receipt-signature', 'Receipt signature'],
  ['checkpoint-signatures', 'Checkpoint signatures'],
  ['checkpoint-binding', 'Checkpoints bound to the receipt'],
  ['entry-chain', 'Entry tick chain'],
  ['exit-chain', 'Exit tick chain'],
  ['exit-tick-rule', 'Exit tick is the last at or before expiry'],
  ['entry-tick-rule', 'Entry price is the entry tick'],
  ['consistency', 'Ids, times and ticks agree'],
  ['outcome', 'Outcome'],
  ['pnl', 'Profit and loss'],
]);

/** @type {ReadonlyMap<StepId, string>} */
const TITLES = new Map(STEPS);
/** @type {readonly ('entry' | 'exit')[]} */
const SIDES = ['entry', 'exit'];

// ---------------------------------------------------------------------------------------------
// Shape checks: each checker appends "<path> <what is wrong>" to the list it is given.
// ---------------------------------------------------------------------------------------------

/** @typedef {(value: unknown, path: string, problems: string[]) => void} Checker */

const HASH = /^[0-9a-f]{64}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DECIMAL_ID = /^(?:0|[1-9][0-9]*)$/;

/**
 * @param {(value: unknown) => boolean} test
 * @param {string} what
 * @returns {Checker}
 */
const leaf = (test, what) => (value, path, problems) => {
  if (value === undefined) problems.push(`${path} is missing`);
  else if (!test(value)) problems.push(`${path} ${what}`);
};

/** @param {unknown} value */
const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

const text = leaf((value) => typeof value === 'string' && value !== '', 'is not a non-empty string');
const integer = leaf((value) => Number.isSafeInteger(value), 'is not a safe integer');
const count = leaf(
  (value) => Number.isSafeInteger(value) && /** @type {number} */ (value) >= 0,
  'is not a non-negative safe integer',
);
const seq = leaf(
  (value) => Number.isSafeInteger(value) && /** @type {number} */ (value) >= 1,
  'is not a positive safe integer',
);
const hash = leaf(
  (value) => typeof value === 'string' && HASH.test(value),
  'is not 64 lowercase hex characters',
);
const price = leaf(isPriceText, 'is not a canonical price string (shortest round-trip decimal, no exponent)');
const pair = leaf(
  (value) => typeof value === 'string' && value !== '' && !value.includes('|'),
  'is not a pair name (a non-empty string without "|")',
);

/**
 * @param {readonly unknown[]} values
 * @returns {Checker}
 */
const oneOf = (values) =>
  leaf((value) => values.includes(value), `is not one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);

/**
 * @param {Checker} checker
 * @returns {Checker}
 */
const nullable = (checker) => (value, path, problems) => {
  if (value !== null) checker(value, path, problems);
};

/**
 * @param {Checker} checker
 * @param {number} [minLength]
 * @returns {Checker}
 */
const arrayOf =
  (checker, minLength = 0) =>
  (value, path, problems) => {
    if (value === undefined) problems.push(`${path} is missing`);
    else if (!Array.isArray(value)) problems.push(`${path} is not an array`);
    else if (value.length < minLength) problems.push(`${path} holds fewer than ${minLength} elements`);
    else value.forEach((element, index) => checker(element, `${path}[${index}]`, problems));
  };

/**
 * @param {Record<string, Checker>} members
 * @returns {Checker}
 */
const shape = (members) => (value, path, problems) => {
  if (value === undefined) {
    problems.push(`${path} is missing`);
    return;
  }
  if (!isRecord(value)) {
    problems.push(`${path === '' ? 'the document' : path} is not an object`);
    return;
  }
  const record = /** @type {Record<string, unknown>} */ (value);
  for (const [name, checker] of Object.entries(members)) {
    checker(record[name], path === '' ? name : `${path}.${name}`, problems);
  }
};

/**
 * @param {Checker} checker
 * @returns {Checker}
 */
const optional = (checker) => (value, path, problems) => {
  if (value !== undefined) checker(value, path, problems);
};

const tick = shape({ seq, atMs: count, price, prevHash: hash, hash });
const referenceShape = shape({
  provider: text,
  spreadBps: count,
  entryPrice: nullable(price),
  entryAtMs: nullable(count),
  expiryPrice: nullable(price),
  expiryAtMs: nullable(count),
});
const signature = shape({
  alg: oneOf(['Ed25519']),
  kid: text,
  sig: leaf((value) => typeof value === 'string' && BASE64URL.test(value), 'is not base64url'),
});
const checkpoint = shape({
  type: oneOf(['updown.checkpoint.v1']),
  pair,
  fromSeq: seq,
  toSeq: seq,
  ticks: count,
  fromMs: count,
  toMs: count,
  startHash: hash,
  headHash: hash,
  signedAtMs: count,
});
const signedCheckpoint = shape({ checkpoint, signature });
const checkpointRef = shape({ toSeq: seq, headHash: hash });
const segmentProof = shape({ checkpoint: signedCheckpoint, segment: arrayOf(tick, 1) });
const receiptShape = shape({
  type: oneOf(['updown.receipt.v1']),
  receiptId: text,
  tradeId: text,
  userId: text,
  pair,
  direction: oneOf(['UP', 'DOWN']),
  account: oneOf(['demo', 'real']),
  stakeCents: count,
  payoutBasisPoints: count,
  acceptedAtMs: count,
  expiryAtMs: count,
  entryPrice: price,
  entryTick: nullable(tick),
  exitTick: nullable(tick),
  afterExpiryTick: nullable(tick),
  outcome: oneOf(OUTCOMES),
  rule: oneOf(RULES),
  pnlCents: integer,
  ledgerKey: text,
  ledgerEntryIds: arrayOf(
    leaf((value) => typeof value === 'string' && DECIMAL_ID.test(value), 'is not a decimal id'),
  ),
  settledAtMs: count,
  checkpoints: shape({ entry: nullable(checkpointRef), exit: nullable(checkpointRef) }),
  issuedAtMs: count,
  reference: optional(referenceShape),
});
const documentShape = shape({
  receipt: receiptShape,
  signature,
  proof: shape({ entry: nullable(segmentProof), exit: nullable(segmentProof) }),
});

/**
 * What is wrong with the shape of a receipt document, each naming its path
 * (`receipt.stakeCents is not a non-negative safe integer`); empty when every field is present
 * with the right type and the signed parts have a canonical JSON form.
 *
 * @param {unknown} document
 * @returns {string[]}
 */
export function receiptDocumentProblems(document) {
  /** @type {string[]} */
  const problems = [];
  documentShape(document, '', problems);
  if (problems.length > 0) return problems;
  const valid = /** @type {ReceiptDocument} */ (document);
  canonicalProblem(valid.receipt, 'receipt', problems);
  for (const side of SIDES) {
    const proof = valid.proof[side];
    if (proof) canonicalProblem(proof.checkpoint.checkpoint, `proof.${side}.checkpoint.checkpoint`, problems);
  }
  return problems;
}

/**
 * @param {unknown} value
 * @param {string} path
 * @param {string[]} problems
 */
function canonicalProblem(value, path, problems) {
  try {
    canonicalJson(value, path);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
}

// ---------------------------------------------------------------------------------------------
// Checkpoints
// ---------------------------------------------------------------------------------------------

/**
 * Verifies a signed checkpoint on its own: its shape, its signature by a key of the set, and that
 * its numbers agree (ticks = toSeq - fromSeq + 1, fromMs <= toMs, the first checkpoint of a pair
 * starts from the genesis hash).
 *
 * @param {unknown} signed a {@link SignedCheckpoint}
 * @param {KeySet} keySet
 * @param {CryptoPort} port
 * @returns {Promise<CheckpointCheck>}
 */
export async function verifyCheckpoint(signed, keySet, port) {
  /** @type {string[]} */
  const problems = [];
  signedCheckpoint(signed, 'checkpoint document', problems);
  problems.push(...keySetProblems(keySet).map((problem) => `key set: ${problem}`));
  if (problems.length > 0) return { valid: false, problems };
  const { checkpoint: body, signature: sig } = /** @type {SignedCheckpoint} */ (signed);
  let canonical;
  try {
    canonical = canonicalJson(body, 'checkpoint');
  } catch (error) {
    return { valid: false, problems: [error instanceof Error ? error.message : String(error)] };
  }
  problems.push(...(await verifySignature(port, keySet, canonical, sig)).problems);
  problems.push(...checkpointConsistencyProblems(body));
  return { valid: problems.length === 0, problems };
}

/**
 * The checks of a checkpoint's own numbers. Its times are its first and last ticks' and it was
 * signed after its last tick, so fromMs <= toMs <= signedAtMs; tick times rise strictly, so a
 * checkpoint over several ticks has fromMs < toMs and one over a single tick fromMs = toMs.
 *
 * @param {Checkpoint} body
 * @returns {string[]}
 */
export function checkpointConsistencyProblems(body) {
  /** @type {string[]} */
  const problems = [];
  if (body.fromSeq > body.toSeq) problems.push(`fromSeq ${body.fromSeq} is after toSeq ${body.toSeq}`);
  if (body.ticks !== body.toSeq - body.fromSeq + 1) {
    problems.push(`ticks is ${body.ticks}, toSeq - fromSeq + 1 is ${body.toSeq - body.fromSeq + 1}`);
  }
  if (body.fromMs > body.toMs) problems.push(`fromMs ${body.fromMs} is after toMs ${body.toMs}`);
  else if (body.fromSeq < body.toSeq && body.fromMs === body.toMs) {
    problems.push(`fromMs equals toMs ${body.toMs} over ${body.ticks} ticks: tick times rise strictly`);
  } else if (body.fromSeq === body.toSeq && body.fromMs !== body.toMs) {
    problems.push(`fromMs ${body.fromMs} is not toMs ${body.toMs} for a checkpoint over one tick`);
  }
  if (body.toMs > body.signedAtMs) {
    problems.push(`signedAtMs ${body.signedAtMs} is before toMs ${body.toMs}: signed before its last tick`);
  }
  if (body.fromSeq === 1 && body.startHash !== GENESIS_HASH) {
    problems.push('a checkpoint from tick 1 must start from the genesis hash (64 zeros)');
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Receipts
// ---------------------------------------------------------------------------------------------

/**
 * Verifies a receipt document against a key set: steps 1–10 of docs/receipts.md in order.
 *
 * @param {unknown} document the receipt document, as parsed from JSON
 * @param {KeySet} keySet the published key set (`/.well-known/updown-keys.json`)
 * @param {CryptoPort} port node:crypto (`@updown/verify/node`) or Web Crypto (`webCrypto()`)
 * @returns {Promise<VerificationResult>}
 */
export async function verifyReceipt(document, keySet, port) {
  /** @type {VerificationStep[]} */
  const steps = [];
  /**
   * @param {StepId} id
   * @param {StepStatus} status
   * @param {string} detail
   */
  const report = (id, status, detail) => {
    steps.push({ id, title: /** @type {string} */ (TITLES.get(id)), status, detail });
  };
  /**
   * Reports a step by its problems: failed if there are any, else ok, or skipped when there was
   * nothing to check.
   *
   * @param {StepId} id
   * @param {readonly string[]} problems
   * @param {{ ok: string } | { skipped: string }} otherwise
   */
  const conclude = (id, problems, otherwise) => {
    if (problems.length > 0) report(id, 'fail', joined(problems));
    else if ('ok' in otherwise) report(id, 'ok', otherwise.ok);
    else report(id, 'skipped', otherwise.skipped);
  };

  const formatProblems = [
    ...keySetProblems(keySet).map((problem) => `key set: ${problem}`),
    ...receiptDocumentProblems(document),
  ];
  if (formatProblems.length > 0) {
    report('format', 'fail', joined(formatProblems));
    for (const [id] of STEPS.slice(1)) report(id, 'skipped', 'not checked: the document is not usable');
    return result(steps, 'unusable');
  }
  const doc = /** @type {ReceiptDocument} */ (document);
  const { receipt, proof } = doc;
  report('format', 'ok', `receipt ${receipt.receiptId} of trade ${receipt.tradeId} (${receipt.pair})`);

  // 2. The receipt's signature.
  const signed = await verifySignature(port, keySet, canonicalJson(receipt, 'receipt'), doc.signature);
  conclude('receipt-signature', signed.problems, { ok: `signed by ${keyLabel(signed.key)}` });

  // 3. Each proof checkpoint's signature, and its pair.
  /** @type {string[]} */
  const checkpointProblems = [];
  /** @type {string[]} */
  const checkpointsSeen = [];
  for (const side of SIDES) {
    const segmentProof = proof[side];
    if (!segmentProof) continue;
    const body = segmentProof.checkpoint.checkpoint;
    const checked = await verifyCheckpoint(segmentProof.checkpoint, keySet, port);
    checkpointProblems.push(...checked.problems.map((problem) => `${side} checkpoint: ${problem}`));
    if (body.pair !== receipt.pair) {
      checkpointProblems.push(`${side} checkpoint is for pair ${body.pair}, the receipt for ${receipt.pair}`);
    }
    checkpointsSeen.push(
      `${side} checkpoint (ticks ${body.fromSeq}–${body.toSeq}) signed by key ${segmentProof.checkpoint.signature.kid}`,
    );
  }
  conclude(
    'checkpoint-signatures',
    checkpointProblems,
    checkpointsSeen.length > 0
      ? { ok: checkpointsSeen.join('; ') }
      : { skipped: 'the proof holds no checkpoint' },
  );

  // 4. The proof's checkpoints are the ones the receipt signs.
  /** @type {string[]} */
  const bindingProblems = [];
  /** @type {string[]} */
  const bound = [];
  for (const side of SIDES) {
    const ref = receipt.checkpoints[side];
    const segmentProof = proof[side];
    if (ref && !segmentProof) {
      bindingProblems.push(
        `the receipt names an ${side} checkpoint (toSeq ${ref.toSeq}) but the proof holds none`,
      );
    } else if (!ref && segmentProof) {
      bindingProblems.push(`the proof holds an ${side} checkpoint the receipt does not name`);
    } else if (ref && segmentProof) {
      const body = segmentProof.checkpoint.checkpoint;
      if (body.toSeq !== ref.toSeq) {
        bindingProblems.push(`${side} checkpoint toSeq is ${body.toSeq}, the receipt names ${ref.toSeq}`);
      }
      if (body.headHash !== ref.headHash) {
        bindingProblems.push(
          `${side} checkpoint headHash ${body.headHash} is not the receipt's ${ref.headHash}`,
        );
      }
      bound.push(`${side} checkpoint to tick ${ref.toSeq}`);
    }
  }
  conclude(
    'checkpoint-binding',
    bindingProblems,
    bound.length > 0
      ? { ok: `${bound.join(' and ')}: toSeq and headHash as the receipt signs them` }
      : { skipped: 'the receipt names no checkpoint' },
  );

  // 5. The segments link the receipt's ticks to the checkpoints.
  const exitAnchor = receipt.exitTick ?? receipt.afterExpiryTick;
  const entryChain = await chainStep(port, receipt, 'entry', receipt.entryTick, undefined, proof.entry);
  report('entry-chain', entryChain.status, entryChain.detail);
  const exitSecond = receipt.exitTick && receipt.afterExpiryTick ? receipt.afterExpiryTick : undefined;
  const exitChain = await chainStep(port, receipt, 'exit', exitAnchor, exitSecond, proof.exit);
  report('exit-chain', exitChain.status, exitChain.detail);

  // Every tick the receipt and its proof hold, once per seq: the rules below use all of them.
  const given = givenTicks({
    entryTick: receipt.entryTick,
    exitTick: receipt.exitTick,
    afterExpiryTick: receipt.afterExpiryTick,
    entrySegment: proof.entry?.segment ?? [],
    exitSegment: proof.exit?.segment ?? [],
  });

  // 6. The exit tick is the last tick at or before expiry, proven by the tick after it.
  const exitRule = exitTickRule(receipt, given.ticks);
  report('exit-tick-rule', exitRule.status, exitRule.detail);

  // 7. The entry price is the entry tick's, fresh at acceptance.
  const entryRule = entryTickRule(receipt, given.ticks);
  report('entry-tick-rule', entryRule.status, entryRule.detail);

  // 8. The ids derived from the trade, the times in order, the ticks given in agreement.
  const consistencyProblems = [
    ...(await idProblems(port, receipt)),
    ...receiptTimeProblems(receipt),
    ...referenceTimeProblems(receipt),
    ...given.problems,
    ...givenTickOrderProblems(given.ticks, given.sourcesOf),
  ];
  conclude('consistency', consistencyProblems, {
    ok: `receipt id and ledger key derived from trade ${receipt.tradeId}; accepted ${receipt.acceptedAtMs} <= expiry ${receipt.expiryAtMs} <= settled ${receipt.settledAtMs} <= issued ${receipt.issuedAtMs}; ${given.ticks.length} tick${given.ticks.length === 1 ? '' : 's'} given, one per seq, rising in time`,
  });

  // 9. The outcome and rule, recomputed.
  const exit = receipt.exitTick
    ? { price: Number(receipt.exitTick.price), atMs: receipt.exitTick.atMs }
    : undefined;
  const reference = receipt.reference && {
    spreadBps: receipt.reference.spreadBps,
    atEntry: receipt.reference.entryPrice === null ? null : Number(receipt.reference.entryPrice),
    atExpiry: receipt.reference.expiryPrice === null ? null : Number(receipt.reference.expiryPrice),
  };
  const ruled = settlementRule(
    receipt.direction,
    Number(receipt.entryPrice),
    receipt.expiryAtMs,
    exit,
    reference,
  );
  /** @type {string[]} */
  const outcomeProblems = [];
  if (receipt.outcome !== ruled.outcome) {
    outcomeProblems.push(
      `receipt outcome is ${receipt.outcome}, the rules give ${ruled.outcome} (${ruled.rule})`,
    );
  }
  if (receipt.rule !== ruled.rule) {
    outcomeProblems.push(`receipt rule is ${receipt.rule}, the rules give ${ruled.rule}`);
  }
  const exitText = receipt.exitTick
    ? `exit ${receipt.exitTick.price} at tick ${receipt.exitTick.seq}`
    : 'no exit tick';
  conclude('outcome', outcomeProblems, {
    ok: `${receipt.direction} from ${receipt.entryPrice}, ${exitText}: ${ruled.outcome} (${ruled.rule})`,
  });

  // 10. The profit, recomputed from the recomputed outcome.
  /** @type {string[]} */
  const pnlProblems = [];
  let pnl = 0;
  try {
    pnl = pnlCents(receipt.stakeCents, receipt.payoutBasisPoints, ruled.outcome);
    if (pnl !== receipt.pnlCents)
      pnlProblems.push(`receipt pnlCents is ${receipt.pnlCents}, the rules give ${pnl}`);
  } catch (error) {
    pnlProblems.push(error instanceof Error ? error.message : String(error));
  }
  conclude('pnl', pnlProblems, {
    ok: pnlExplanation(receipt.stakeCents, receipt.payoutBasisPoints, ruled.outcome, pnl),
  });

  return result(steps, steps.some((step) => step.status === 'fail') ? 'invalid' : 'valid');
}

/**
 * Step 5 for one side.
 *
 * @param {CryptoPort} port
 * @param {Receipt} receipt
 * @param {'entry' | 'exit'} side
 * @param {Tick | null} anchor the receipt's tick the segment starts with
 * @param {Tick | undefined} second the receipt's tick that must come second
 * @param {SegmentProof | null} segmentProof
 * @returns {Promise<{ status: StepStatus, detail: string }>}
 */
async function chainStep(port, receipt, side, anchor, second, segmentProof) {
  const name = side === 'entry' ? 'entry tick' : receipt.exitTick ? 'exit tick' : 'after-expiry tick';
  if (!segmentProof) {
    if (receipt.checkpoints[side]) return { status: 'skipped', detail: `the proof holds no ${side} segment` };
    if (!anchor) {
      const none = side === 'entry' ? 'an entry tick' : 'an exit tick or a tick after expiry';
      return { status: 'skipped', detail: `the receipt names no ${none}` };
    }
    return {
      status: 'fail',
      detail: `${name} ${anchor.seq} is not covered by a signed checkpoint in this receipt: its place in the chain is not proven`,
    };
  }
  if (!anchor) {
    return { status: 'fail', detail: `the proof holds an ${side} segment but the receipt names no ${name}` };
  }
  const body = segmentProof.checkpoint.checkpoint;
  const problems = await verifySegment(port, receipt.pair, segmentProof.segment, {
    first: anchor,
    ...(second ? { second } : {}),
    toSeq: body.toSeq,
    headHash: body.headHash,
    fromSeq: body.fromSeq,
    startHash: body.startHash,
    fromMs: body.fromMs,
    toMs: body.toMs,
  });
  if (problems.length > 0) {
    return { status: 'fail', detail: joined(problems.map((problem) => `${side} segment: ${problem}`)) };
  }
  const length = segmentProof.segment.length;
  return {
    status: 'ok',
    detail: `${length} tick${length === 1 ? '' : 's'} link ${name} ${anchor.seq} to the checkpoint head (tick ${body.toSeq})`,
  };
}

/**
 * Step 6: the rules module's exit rule over the receipt's ticks and every tick its proof holds.
 *
 * @param {Receipt} receipt
 * @param {readonly Tick[]} ticks every tick given, one per seq
 * @returns {{ status: StepStatus, detail: string }}
 */
function exitTickRule(receipt, ticks) {
  const { exitTick, afterExpiryTick, expiryAtMs } = receipt;
  const others = ticks.filter((tick) => tick.seq !== exitTick?.seq);
  const problems = exitTickProblems(expiryAtMs, exitTick, afterExpiryTick, others);
  if (problems.length > 0) return { status: 'fail', detail: joined(problems) };
  const nextSeq = exitTick ? exitTick.seq + 1 : 1;
  const next = /** @type {Tick} */ (
    afterExpiryTick?.seq === nextSeq ? afterExpiryTick : others.find((tick) => tick.seq === nextSeq)
  );
  const where = next === afterExpiryTick ? '' : ' (from the proof)';
  if (exitTick) {
    return {
      status: 'ok',
      detail: `tick ${exitTick.seq} at ${exitTick.atMs} <= expiry ${expiryAtMs} < tick ${next.seq} at ${next.atMs}${where}`,
    };
  }
  return {
    status: 'ok',
    detail: `no tick at or before expiry ${expiryAtMs}: the first tick after it is the pair's tick 1 (at ${next.atMs})${where}`,
  };
}

/**
 * Step 7: the rules module's entry rule, saying how the entry tick stands to the tick after it.
 *
 * @param {Receipt} receipt
 * @param {readonly Tick[]} ticks every tick given, one per seq
 * @returns {{ status: StepStatus, detail: string }}
 */
function entryTickRule(receipt, ticks) {
  const { entryTick, entryPrice, acceptedAtMs } = receipt;
  const problems = entryTickProblems(entryPrice, acceptedAtMs, entryTick);
  if (problems.length > 0 || entryTick === null) return { status: 'fail', detail: joined(problems) };
  const ageMs = acceptedAtMs - entryTick.atMs;
  const next = ticks.find((tick) => tick.seq === entryTick.seq + 1);
  let after = '';
  if (next && next.atMs <= acceptedAtMs) {
    after = `; the next tick, ${next.seq} at ${next.atMs}, is at or before the acceptance too, which the rule allows: the price a trade enters at may trail the chain, by at most ${ENTRY_PRICE_AGE_MS_MAX} ms`;
  } else if (next) {
    after = `; tick ${next.seq} came after it, at ${next.atMs}`;
  }
  return {
    status: 'ok',
    detail: `entry price ${entryPrice} is tick ${entryTick.seq}'s, at ${entryTick.atMs} <= accepted ${acceptedAtMs} (${ageMs} ms before, at most ${ENTRY_PRICE_AGE_MS_MAX})${after}`,
  };
}

/**
 * The receipt id and the ledger key, derived from the trade id.
 *
 * @param {CryptoPort} port
 * @param {Receipt} receipt
 * @returns {Promise<string[]>}
 */
async function idProblems(port, receipt) {
  /** @type {string[]} */
  const problems = [];
  const receiptId = await receiptIdFor(port, receipt.tradeId);
  if (receipt.receiptId !== receiptId) {
    problems.push(
      `receiptId ${receipt.receiptId} is not ${receiptId}, the id derived from trade ${receipt.tradeId}`,
    );
  }
  const ledgerKey = ledgerKeyFor(receipt.tradeId);
  if (receipt.ledgerKey !== ledgerKey) problems.push(`ledgerKey ${receipt.ledgerKey} is not ${ledgerKey}`);
  return problems;
}

/**
 * @param {number} stakeCents
 * @param {number} payoutBasisPoints
 * @param {Outcome} outcome
 * @param {number} pnl
 */
function pnlExplanation(stakeCents, payoutBasisPoints, outcome, pnl) {
  switch (outcome) {
    case 'won':
      return `won: ${stakeCents} × ${payoutBasisPoints / 100}% rounded down = ${pnl} cents`;
    case 'lost':
      return `lost: the stake, ${pnl} cents`;
    default:
      return `${outcome}: 0 cents`;
  }
}

/** @param {import('./keys.js').KeySetJwk | undefined} key */
function keyLabel(key) {
  if (!key) return 'an unknown key';
  return key.status === 'retired' ? `retired key ${key.kid} (still in the key set)` : `key ${key.kid}`;
}

/** Several problems of one step, in one detail. */
const PROBLEMS_SHOWN_MAX = 12;

/** @param {readonly string[]} problems */
function joined(problems) {
  if (problems.length <= PROBLEMS_SHOWN_MAX) return problems.join('; ');
  return `${problems.slice(0, PROBLEMS_SHOWN_MAX).join('; ')}; and ${problems.length - PROBLEMS_SHOWN_MAX} more`;
}

/**
 * @param {VerificationStep[]} steps
 * @param {VerificationResult['verdict']} verdict
 * @returns {VerificationResult}
 */
function result(steps, verdict) {
  const failed = steps.find((step) => step.status === 'fail');
  return failed ? { verdict, steps, firstFailure: `${failed.id}: ${failed.detail}` } : { verdict, steps };
}
