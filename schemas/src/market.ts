/**
 * Market rules shared by the services and the console: chart timeframes and how many decimals a
 * pair's price has. This module imports nothing, so the console can use it without pulling in
 * the schema library (`import { priceDecimals } from '@updown/schemas/market'`).
 */

/** The chart's timeframes and their length in seconds (spec §9). */
export const TIMEFRAMES = { '1m': 60, '5m': 300, '15m': 900, '30m': 1800, '1h': 3600 } as const;
export type Timeframe = keyof typeof TIMEFRAMES;
export const TIMEFRAME_NAMES = Object.keys(TIMEFRAMES) as Timeframe[];
export const TIMEFRAME_SECONDS = Object.values(TIMEFRAMES) as readonly number[];

export function isTimeframe(value: string): value is Timeframe {
  return Object.hasOwn(TIMEFRAMES, value);
}

/**
 * ISO 4217 codes of the fiat currencies that trade as forex pairs, plus CNH (the market's code
 * for offshore yuan). Metals (XAU, XAG, XPT, XPD) have ISO codes too but are not fiat, so XAUUSD
 * is priced like a commodity, not like a currency.
 */
// prettier-ignore
const FIAT_CURRENCIES = new Set([
  'AED', 'AUD', 'BRL', 'CAD', 'CHF', 'CLP', 'CNH', 'CNY', 'COP', 'CZK', 'DKK', 'EUR', 'GBP', 'HKD',
  'HUF', 'IDR', 'ILS', 'INR', 'ISK', 'JPY', 'KRW', 'KWD', 'MXN', 'MYR', 'NOK', 'NZD', 'PEN', 'PHP',
  'PLN', 'RON', 'RUB', 'SAR', 'SEK', 'SGD', 'THB', 'TRY', 'TWD', 'USD', 'ZAR',
]);

/** True for a six-letter symbol whose halves are both fiat currencies: EURUSD yes, XAUUSD and ETHUSD no. */
export function isForexPair(symbol: string): boolean {
  return (
    /^[A-Z]{6}$/.test(symbol) &&
    FIAT_CURRENCIES.has(symbol.slice(0, 3)) &&
    FIAT_CURRENCIES.has(symbol.slice(3))
  );
}

/**
 * How many decimals a pair's price is quoted with (DESIGN §6, spec §9):
 * - 3 for JPY forex pairs (a yen pip is 0.01, quoted to a tenth of a pip): USDJPY, EURJPY;
 * - 5 for every other forex pair (a pip is 0.0001, plus the fractional pip): EURUSD, GBPUSD;
 * - 2 for everything else (metals, crypto, indices, pairs an admin adds with another name): XAUUSD, BTCUSDT.
 * A pair is forex when both three-letter halves are fiat currency codes (`isForexPair`).
 */
export function priceDecimals(symbol: string): number {
  const upper = symbol.toUpperCase();
  if (!isForexPair(upper)) return 2;
  return upper.endsWith('JPY') ? 3 : 5;
}

/** Rounds a price to a number of decimals, half away from zero; the result is the double closest to that decimal. */
export function roundToDecimals(price: number, decimals: number): number {
  const factor = 10 ** decimals;
  return (Math.sign(price) * Math.round(Math.abs(price) * factor)) / factor;
}

/** Rounds a price to its pair's decimals. */
export function roundPrice(symbol: string, price: number): number {
  return roundToDecimals(price, priceDecimals(symbol));
}

/** A price as the pair quotes it, with trailing zeros: `formatPrice('EURUSD', 1.16) === '1.16000'`. */
export function formatPrice(symbol: string, price: number): string {
  return price.toFixed(priceDecimals(symbol));
}
