import type { Schemas } from '../../../lib/api-schema';
import type { PairFeedBody } from '../api/update-pair-feed';
import { DEFAULT_PAIR_PROVIDER } from '../api/add-pair';

/** The price sources a pair can take: the built-in OTC feed and three exchanges' public feeds. */
export const FEED_PROVIDERS = ['OTC', 'BINANCE', 'COINBASE', 'KRAKEN'] as const;
/** The providers that are exchanges: they need the exchange's symbol, and can be a reference. */
export const EXCHANGE_PROVIDERS = ['BINANCE', 'COINBASE', 'KRAKEN'] as const;

/** The largest disagreement an admin can allow between a pair's two feeds (10%), as the server checks. */
export const SPREAD_BPS_MAX = 1000;

export function isExchange(provider: string): boolean {
  return (EXCHANGE_PROVIDERS as readonly string[]).includes(provider);
}

/** A feed configuration as the form holds it: text fields as typed, '' for no reference. */
export interface FeedDraft {
  provider: string;
  providerSymbol: string;
  referenceProvider: string;
  referenceSymbol: string;
  spreadBps: string;
}

export const EMPTY_FEED_DRAFT: FeedDraft = {
  provider: DEFAULT_PAIR_PROVIDER,
  providerSymbol: '',
  referenceProvider: '',
  referenceSymbol: '',
  spreadBps: '',
};

/** The pair's stored configuration, ready to edit. */
export function draftOfPair(pair: Schemas['MarketPair']): FeedDraft {
  return {
    provider: pair.provider,
    providerSymbol: pair.provider_symbol ?? '',
    referenceProvider: pair.reference_provider ?? '',
    referenceSymbol: pair.reference_symbol ?? '',
    spreadBps: pair.reference_spread_bps === null ? '' : String(pair.reference_spread_bps),
  };
}

/**
 * The request body of a draft. Fields the form hides (an exchange symbol for OTC, the reference's
 * details without a reference) are left out, and so are empty ones: the server reads a missing
 * field as none and answers a missing required one with a readable `detail`, so its rules are
 * kept in one place.
 */
export function feedBodyOf(draft: FeedDraft): PairFeedBody {
  // The form's selects offer only the providers above; the server refuses any other with a detail.
  const body: PairFeedBody = { provider: draft.provider as PairFeedBody['provider'] };
  const providerSymbol = draft.providerSymbol.trim();
  if (isExchange(draft.provider) && providerSymbol !== '') body.provider_symbol = providerSymbol;
  if (draft.referenceProvider === '') return body;
  body.reference_provider = draft.referenceProvider as PairFeedBody['reference_provider'];
  const referenceSymbol = draft.referenceSymbol.trim();
  if (referenceSymbol !== '') body.reference_symbol = referenceSymbol;
  const spread = draft.spreadBps.trim();
  if (spread !== '') body.reference_spread_bps = Number(spread);
  return body;
}

/** `BINANCE · BTC/USDT`, or just `OTC` for a feed without an exchange symbol. */
export function feedLabel(provider: string, symbol: string | null): string {
  return symbol ? `${provider} · ${symbol}` : provider;
}
