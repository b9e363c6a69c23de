import { PRICE_LIMIT, PRICE_MIN } from '@updown/verify/chain';

/**
 * Whether the chain can write a price as its plain decimal string (docs/receipts.md): finite, from
 * the verifier's `PRICE_MIN` up to below its `PRICE_LIMIT`, the bounds `priceText` enforces.
 */
export function isChainablePrice(price: number): boolean {
  return Number.isFinite(price) && price >= PRICE_MIN && price < PRICE_LIMIT;
}
