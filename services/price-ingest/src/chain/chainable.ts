/** Prices a tick chain writes as plain decimal strings (docs/receipts.md): finite, from 1e-6 below 1e15. */
export const CHAIN_PRICE_MIN = 0.000001;
export const CHAIN_PRICE_MAX_EXCLUSIVE = 1e15;

export function isChainablePrice(price: number): boolean {
  return Number.isFinite(price) && price >= CHAIN_PRICE_MIN && price < CHAIN_PRICE_MAX_EXCLUSIVE;
}
