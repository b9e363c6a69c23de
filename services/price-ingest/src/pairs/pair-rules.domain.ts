import { DomainError } from '@updown/runtime/errors';
import {
  EXCHANGE_PROVIDERS,
  FEED_PROVIDERS,
  SOURCE_SYMBOL_LENGTH_MAX,
  SOURCE_SYMBOL_PATTERN,
  SPREAD_BPS_MAX,
} from '@updown/schemas/api';

/** The rules a new pair and a pair's feeds must meet before `market_pairs` takes them. */
/** Matches the pair list's symbol format check, so a bad symbol is a 400, not a constraint error. */
const PAIR_SYMBOL = /^[A-Z0-9][A-Z0-9._-]{1,31}$/;
const SOURCE_SYMBOL = new RegExp(SOURCE_SYMBOL_PATTERN);

export class InvalidPair extends DomainError {
  constructor(message: string) {
    super('INVALID_PAIR', message);
  }
}

export class InvalidFeed extends DomainError {
  constructor(message: string) {
    super('INVALID_FEED', message);
  }
}

/** A pair's feed configuration as stored (`market_pairs`), checked. */
export interface PairFeedConfig {
  readonly provider: string;
  readonly providerSymbol: string | null;
  readonly referenceProvider: string | null;
  readonly referenceSymbol: string | null;
  readonly referenceSpreadBps: number | null;
}

export interface NewPair extends PairFeedConfig {
  readonly symbol: string;
  readonly displayName: string;
}

/** A pair's feeds as an admin sends them (`PUT /api/admin/pairs/{symbol}/feed`). */
export interface FeedInput {
  provider?: string;
  provider_symbol?: string | null;
  reference_provider?: string | null;
  reference_symbol?: string | null;
  reference_spread_bps?: number | null;
}

/** A new pair as an admin sends it (`POST /api/admin/pairs`). */
export type NewPairInput = { symbol: string; display_name: string } & FeedInput;

/** Upper-cases the symbol (as the console does) and checks every field; provider defaults to OTC. */
export function normaliseNewPair(input: NewPairInput): NewPair {
  const symbol = input.symbol.trim().toUpperCase();
  const displayName = input.display_name.trim();
  if (symbol === '' || displayName === '') throw new InvalidPair('Please fill all fields');
  if (!PAIR_SYMBOL.test(symbol)) {
    throw new InvalidPair('Symbol must be 2-32 characters: letters, digits, dot, dash or underscore');
  }
  if (displayName.length > 64) throw new InvalidPair('Display name must be at most 64 characters');
  return { symbol, displayName, ...normaliseFeed(input) };
}

const isExchange = (provider: string) => (EXCHANGE_PROVIDERS as readonly string[]).includes(provider);

function providerName(value: string | undefined | null, field: string): string | null {
  if (value === undefined || value === null) return null;
  const name = value.trim().toUpperCase();
  if (name === '') return null;
  if (!(FEED_PROVIDERS as readonly string[]).includes(name)) {
    throw new InvalidFeed(`${field} must be one of ${FEED_PROVIDERS.join(', ')}`);
  }
  return name;
}

function sourceSymbol(value: string | undefined | null, field: string): string | null {
  const symbol = value?.trim().toUpperCase() ?? '';
  if (symbol === '') return null;
  if (symbol.length > SOURCE_SYMBOL_LENGTH_MAX || !SOURCE_SYMBOL.test(symbol)) {
    throw new InvalidFeed(
      `${field} must look like BTC/USDT: letters, digits and / . _ : -, at most ${SOURCE_SYMBOL_LENGTH_MAX} characters`,
    );
  }
  return symbol;
}

/**
 * A pair's feeds, checked: an exchange feed names the exchange's symbol (OTC takes none); a
 * reference is an exchange other than the pair's own provider, with its symbol and a spread of
 * 1 to `SPREAD_BPS_MAX` basis points. Provider names are upper-cased, as are exchange symbols.
 */
export function normaliseFeed(input: FeedInput): PairFeedConfig {
  const provider = providerName(input.provider ?? 'OTC', 'Provider') ?? 'OTC';
  const providerSymbol = sourceSymbol(input.provider_symbol, 'Exchange symbol');
  if (isExchange(provider) && providerSymbol === null) {
    throw new InvalidFeed(`${provider} needs the exchange's symbol for the pair, e.g. BTC/USDT`);
  }
  if (!isExchange(provider) && providerSymbol !== null) {
    throw new InvalidFeed(`${provider} takes no exchange symbol`);
  }
  const referenceProvider = providerName(input.reference_provider, 'Reference provider');
  if (referenceProvider === null) {
    if (input.reference_symbol || (input.reference_spread_bps ?? null) !== null) {
      throw new InvalidFeed('A reference symbol or spread needs a reference provider');
    }
    return {
      provider,
      providerSymbol,
      referenceProvider: null,
      referenceSymbol: null,
      referenceSpreadBps: null,
    };
  }
  if (!isExchange(referenceProvider)) {
    throw new InvalidFeed(`The reference must be an exchange: ${EXCHANGE_PROVIDERS.join(', ')}`);
  }
  if (referenceProvider === provider) {
    throw new InvalidFeed("The reference must be another provider than the pair's own feed");
  }
  const referenceSymbol = sourceSymbol(input.reference_symbol, 'Reference symbol');
  if (referenceSymbol === null) {
    throw new InvalidFeed(`${referenceProvider} needs the exchange's symbol for the pair, e.g. BTC/USDT`);
  }
  const spread = input.reference_spread_bps;
  if (typeof spread !== 'number' || !Number.isInteger(spread) || spread < 1 || spread > SPREAD_BPS_MAX) {
    throw new InvalidFeed(
      `The allowed spread must be a whole number of basis points from 1 to ${SPREAD_BPS_MAX}`,
    );
  }
  return { provider, providerSymbol, referenceProvider, referenceSymbol, referenceSpreadBps: spread };
}
