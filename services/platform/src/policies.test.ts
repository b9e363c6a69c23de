import { describe, expect, it } from 'vitest';
import { MIN_STAKE_CENTS, PRICE_AGE_MS_MAX, TRADE_DURATIONS_SEC } from '@updown/order';
import {
  EXCHANGE_PROVIDERS,
  IDENTITY_CONTENT_TYPES,
  IDENTITY_DOCUMENT_BYTES_MAX,
  IDENTITY_IMAGE_PIXELS_MAX,
  IDENTITY_IMAGE_SIDE_MAX,
  IDENTITY_MINIMUM_AGE_YEARS,
  IDENTITY_PDF_PAGES_MAX,
  IDENTITY_RETENTION_YEARS,
  PAYMENT_AMOUNT_MAX,
  TRADE_AMOUNT_MAX,
} from '@updown/schemas/api';
import { POLICIES, POLICY_SLUGS, type PolicyDocument, type PolicySlug } from '@updown/schemas/policies';
import {
  DISPUTE_REASON_LENGTH_MAX,
  DISPUTE_WINDOW_MS,
  EXIT_TICK_AGE_MS_MAX,
  pnlCents,
  QUIET_FEED_SETTLE_DELAY_MS,
  TURNOVER_DURATION_SEC_MIN,
} from '@updown/settlement';
import {
  BONUS_CAP_CENTS,
  BONUS_MAX_STAKE_PCT,
  BONUS_MIN_DEPOSIT_CENTS,
  BONUS_RATE_PCT,
  BONUS_TURNOVER_MULTIPLIER,
  BONUS_VALIDITY_DAYS,
  bonusMaxStakeCents,
  firstDepositBonus,
} from '@updown/wallet/domain';

/**
 * The published policies against the engine. Every figure a policy states is built here from the
 * constant (or the function) the engine decides with, and must appear on the page that states the
 * rule; a figure stated more than once must agree everywhere. Changing a rule in the engine without
 * the policy text (or the policy without the engine) fails this file.
 */

const HOUR_MS = 3_600_000;

/** Everything a reader sees on a page, one line per paragraph or list item. */
function textOf(policy: PolicyDocument): string {
  const lines = [policy.title, policy.summary ?? ''];
  for (const section of policy.sections) {
    lines.push(section.heading);
    for (const block of section.blocks) lines.push(...(typeof block === 'string' ? [block] : block.list));
  }
  return lines.join('\n');
}

const TEXT = Object.fromEntries(POLICY_SLUGS.map((slug) => [slug, textOf(POLICIES[slug])])) as Record<
  PolicySlug,
  string
>;
const ALL_TEXT = Object.values(TEXT).join('\n');

function expectStated(slug: PolicySlug, ...phrases: string[]) {
  for (const phrase of phrases) {
    expect(TEXT[slug].includes(phrase), `the ${POLICIES[slug].title} page should say "${phrase}"`).toBe(true);
  }
}

/** Every figure `pattern` (global, figure in a capture group) finds in `text` is `expected`, and there is one. */
function expectOnlyFigure(text: string, pattern: RegExp, expected: string) {
  const found = [...text.matchAll(pattern)].map((match) =>
    match.slice(1).find((group) => group !== undefined),
  );
  expect(found.length, `${pattern} should occur`).toBeGreaterThan(0);
  expect(new Set(found), `every ${pattern}`).toEqual(new Set([expected]));
}

/** Whole dollars without cents when there are none: $20, $1,000, $10.25. */
function usd(cents: number): string {
  const fraction = cents % 100 === 0 ? 0 : 2;
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: fraction, maximumFractionDigits: fraction })}`;
}

/** Always with cents, as the API's refusals write stakes: $1.00, $5,000.00. */
function usdCents(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function wholeUnits(amount: number, unit: number, name: string): number {
  const count = amount / unit;
  if (!Number.isInteger(count))
    throw new Error(`${amount} is not a whole number of ${name}s: reword the policy`);
  return count;
}

function durationText(seconds: number): string {
  if (seconds % 3600 === 0) return plural(seconds / 3600, 'hour');
  return plural(wholeUnits(seconds, 60, 'minute'), 'minute');
}

/** "a, b or c", the policies' way of listing alternatives. */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

const CONTENT_TYPE_NAMES: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'application/pdf': 'PDF',
};

describe('policy documents', () => {
  it('has one document per policy route, filed under its own slug, with a distinct title', () => {
    expect(Object.keys(POLICIES).sort()).toEqual([...POLICY_SLUGS].sort());
    for (const slug of POLICY_SLUGS) expect(POLICIES[slug].slug).toBe(slug);
    expect(new Set(POLICY_SLUGS.map((slug) => POLICIES[slug].title)).size).toBe(POLICY_SLUGS.length);
  });

  it.each(POLICY_SLUGS)(
    '%s has a version, a valid effective date and at least 5 numbered sections',
    (slug) => {
      const policy = POLICIES[slug];
      expect(policy.version).toMatch(/^\d+\.\d+$/);
      expect(policy.effective_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(new Date(`${policy.effective_date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(
        policy.effective_date,
      );
      expect(policy.sections.length).toBeGreaterThanOrEqual(5);
      expect(policy.sections.map((section) => section.number)).toEqual(
        policy.sections.map((_, index) => String(index + 1)),
      );
      for (const section of policy.sections) {
        expect(section.heading.trim(), `section ${section.number}`).not.toBe('');
        expect(section.blocks.length, `section ${section.number}`).toBeGreaterThan(0);
        for (const block of section.blocks) {
          const lines = typeof block === 'string' ? [block] : block.list;
          expect(lines.length).toBeGreaterThan(0);
          for (const line of lines)
            expect(line.trim().length, `section ${section.number}`).toBeGreaterThan(10);
        }
      }
      expect(TEXT[slug].length, 'a real document, not a stub').toBeGreaterThan(3000);
    },
  );

  it.each(POLICY_SLUGS)('%s has no placeholder text', (slug) => {
    expect(TEXT[slug]).not.toMatch(
      /lorem|ipsum|\bTODO\b|\bTBD\b|FIXME|XXX|placeholder|\[[^\]]*\]|\{\{|example\.(com|org)/i,
    );
  });
});

describe('the policies state the engine rules', () => {
  it('bonus: rate, cap, minimum deposit, turnover, stake limit, validity and what counts', () => {
    const capReachedAtCents = (BONUS_CAP_CENTS * 100) / BONUS_RATE_PCT;
    const eligible = { bonusUsed: false, hasActiveBonus: false };
    expect(firstDepositBonus(capReachedAtCents, eligible, 0)?.amountCents).toBe(BONUS_CAP_CENTS);
    expect(firstDepositBonus(capReachedAtCents - 100, eligible, 0)?.amountCents).toBeLessThan(
      BONUS_CAP_CENTS,
    );
    expect(firstDepositBonus(BONUS_MIN_DEPOSIT_CENTS - 1, eligible, 0)).toBeNull();

    expectStated(
      'bonus-policy',
      `${BONUS_RATE_PCT}% of your first deposit`,
      `up to ${usd(BONUS_CAP_CENTS)}, which is reached with a ${usd(capReachedAtCents)} deposit`,
      `minimum qualifying deposit is ${usd(BONUS_MIN_DEPOSIT_CENTS)}`,
      `first deposit below ${usd(BONUS_MIN_DEPOSIT_CENTS)} earns no bonus`,
      `wagering turnover of ${BONUS_TURNOVER_MULTIPLIER} times the bonus`,
      `maximum stake per real trade is ${BONUS_MAX_STAKE_PCT}% of the bonus amount`,
      `valid for ${BONUS_VALIDITY_DAYS} days`,
      `settled real trades with an expiry of ${TURNOVER_DURATION_SEC_MIN} seconds or more`,
      `expiry under ${TURNOVER_DURATION_SEC_MIN} seconds`,
      'hedged opposite positions',
      'same asset with the same expiry',
      'demo trades',
      'count 0%',
      'Withdrawing before completion forfeits the bonus',
      'Cancel Bonus',
      'converted to cash',
    );
    expectOnlyFigure(ALL_TEXT, /(\d+) times the bonus/g, String(BONUS_TURNOVER_MULTIPLIER));
    expectOnlyFigure(ALL_TEXT, /(\d+)% of the bonus/g, String(BONUS_MAX_STAKE_PCT));
    expectOnlyFigure(TEXT['bonus-policy'], /(\d+) days?\b/g, String(BONUS_VALIDITY_DAYS));
    expectOnlyFigure(TEXT['bonus-policy'], /(\d+) seconds/g, String(TURNOVER_DURATION_SEC_MIN));
    expectStated('rules', `a real stake is also limited to ${BONUS_MAX_STAKE_PCT}% of the bonus amount`);
  });

  it("bonus: the worked example is the engine's own arithmetic", () => {
    const depositCents = 20_000;
    const grant = firstDepositBonus(depositCents, { bonusUsed: false, hasActiveBonus: false }, 0);
    expect(grant).not.toBeNull();
    expectStated(
      'bonus-policy',
      `a first deposit of ${usd(depositCents)} earns a ${usd(grant!.amountCents)} bonus`,
      `For the ${usd(grant!.amountCents)} bonus above, that is ${usd(grant!.turnoverRequiredCents)} of counted stake`,
      `For the ${usd(grant!.amountCents)} bonus above, that is ${usd(bonusMaxStakeCents(grant!.amountCents))} per trade`,
    );
  });

  it('trades: durations from 1 minute to 1 hour, and the stake bounds', () => {
    const durations = [...TRADE_DURATIONS_SEC];
    const shortest = durationText(Math.min(...durations));
    const longest = durationText(Math.max(...durations));
    expectStated('terms', `a duration from ${shortest} to ${longest}`);
    expectStated('rules', `one of these durations: ${orList(durations.map(durationText))}.`);
    expectStated(
      'rules',
      `The minimum stake is ${usdCents(MIN_STAKE_CENTS)} and the maximum stake is ${usdCents(TRADE_AMOUNT_MAX * 100)} per trade`,
    );
  });

  it('trades: acceptance, payout, entry and exit prices, results and the freshness bounds', () => {
    expectStated(
      'rules',
      'the last price at or before acceptance',
      `A pair whose last price is older than ${plural(PRICE_AGE_MS_MAX / 1000, 'second')} cannot be traded`,
      'The exit price is the last price at or before expiry',
      `or ${plural(QUIET_FEED_SETTLE_DELAY_MS / 1000, 'second')} after expiry if no new price arrives`,
      `there was no price in the ${plural(EXIT_TICK_AGE_MS_MAX / 1000, 'second')} before expiry`,
      "the pair's feed and its reference feed diverged by more than the pair's spread",
      'the reason is recorded on the trade',
      'The payout is fixed at placement',
      'Trades cannot be cancelled',
      `Binance, Coinbase or Kraken`,
    );
    expect(orList(EXCHANGE_PROVIDERS.map((p) => p[0] + p.slice(1).toLowerCase()))).toBe(
      'Binance, Coinbase or Kraken',
    );
    expectStated(
      'terms',
      'Trades cannot be cancelled once accepted',
      'The payout is fixed at placement',
      'new payout',
    );
    expectStated('client-agreement', 'Trades cannot be cancelled');
  });

  it("trades: the P/L examples are settlement's own arithmetic", () => {
    const win = pnlCents(10_000, 80, 'won');
    expect(pnlCents(10_000, 80, 'lost')).toBe(-10_000);
    expect(pnlCents(10_000, 80, 'draw')).toBe(0);
    expect(pnlCents(10_000, 80, 'void')).toBe(0);
    expectStated(
      'rules',
      `a ${usdCents(10_000)} stake at a payout of 80% that wins earns ${usdCents(win)} and returns ${usdCents(10_000 + win)}`,
      `if it loses, the ${usdCents(10_000)} stake is lost; a draw or a void trade returns the ${usdCents(10_000)} stake`,
      `A ${usdCents(1_025)} stake at a payout of 85% that wins earns ${usdCents(pnlCents(1_025, 85, 'won'))}, because the profit is rounded down`,
    );
  });

  it('disputes: within the dispute window of settlement, decided by replaying the recorded prices', () => {
    const window = `${plural(wholeUnits(DISPUTE_WINDOW_MS, HOUR_MS, 'hour'), 'hour')}`;
    for (const slug of ['terms', 'rules', 'client-agreement'] as const) {
      expectStated(slug, `within ${window} of settlement`, 'hash-chained prices');
    }
    expectOnlyFigure(ALL_TEXT, /(\d+) hours (?:of|from) settlement/g, String(DISPUTE_WINDOW_MS / HOUR_MS));
    expectOnlyFigure(ALL_TEXT, /After (\d+) hours/g, String(DISPUTE_WINDOW_MS / HOUR_MS));
    expectStated(
      'rules',
      `up to ${DISPUTE_REASON_LENGTH_MAX} characters`,
      'replaying the settlement',
      'signed receipt',
    );
  });

  it('age: 18 or older, everywhere it is stated', () => {
    expectStated(
      'terms',
      `${IDENTITY_MINIMUM_AGE_YEARS} years of age or older`,
      `I confirm that I am ${IDENTITY_MINIMUM_AGE_YEARS} years or older`,
    );
    expectStated('aml-policy', `You must be ${IDENTITY_MINIMUM_AGE_YEARS} years or older`);
    expectOnlyFigure(
      ALL_TEXT,
      /(\d+) years(?: of age)? or older|\bunder (\d+)\b(?! seconds)|aged (\d+) or older/g,
      String(IDENTITY_MINIMUM_AGE_YEARS),
    );
  });

  it('identity documents: types, size, pages and picture bounds', () => {
    const names = IDENTITY_CONTENT_TYPES.map((type) => {
      const name = CONTENT_TYPE_NAMES[type];
      if (!name) throw new Error(`the AML policy does not name the document type ${type}`);
      return name;
    });
    const megabytes = wholeUnits(IDENTITY_DOCUMENT_BYTES_MAX, 1024 * 1024, 'megabyte');
    expectStated(
      'aml-policy',
      `a ${orList(names)} file of up to ${megabytes} MB`,
      `A PDF may have at most ${IDENTITY_PDF_PAGES_MAX} pages`,
      `at most ${IDENTITY_IMAGE_SIDE_MAX.toLocaleString('en-US')} pixels on its longest side`,
      `${wholeUnits(IDENTITY_IMAGE_PIXELS_MAX, 1_000_000, 'megapixel')} megapixels in total`,
      'Photo ID and proof of address are mandatory before any withdrawal',
      'approves or rejects',
      'reason',
      'submit again',
      'Multiple accounts are prohibited',
      'the same full name',
      'same date of birth',
      'suspicious activity',
    );
  });

  it('retention: verification data kept at least 5 years after the account closes, never claimed encrypted', () => {
    const kept = `at least ${IDENTITY_RETENTION_YEARS} years after your account closes`;
    expectStated('privacy', kept);
    expectStated('aml-policy', kept, 'It is not deleted before then');
    expectOnlyFigure(ALL_TEXT, /(\d+) years after/g, String(IDENTITY_RETENTION_YEARS));
    for (const slug of ['privacy', 'aml-policy'] as const) {
      expectStated(
        slug,
        'limited to you and our compliance staff (administrators)',
        'never shown to other users',
      );
    }
    // The documents are stored in PostgreSQL as they were uploaded: no page may claim encryption.
    expect(ALL_TEXT).not.toMatch(/encrypt/i);
  });

  it('accounts, withdrawals and payments', () => {
    expectStated(
      'terms',
      'Multiple accounts are prohibited',
      'same identity document',
      'same full name and date of birth',
      'flagged for review',
      'two-factor authentication',
      'suspend real trading on a pair',
      'you lose your whole stake',
    );
    expectStated(
      'client-agreement',
      'photo ID and proof of address must have been approved',
      'Every withdrawal is approved manually by our staff',
      'within 24 hours',
      'the bonus is forfeited',
      'We charge no fees',
      'counterparty',
      'payment provider',
    );
    expectOnlyFigure(
      TEXT['client-agreement'],
      /can be up to (\$\d[\d,]*(?:\.\d\d)?)/g,
      usdCents(PAYMENT_AMOUNT_MAX * 100),
    );
  });
});
