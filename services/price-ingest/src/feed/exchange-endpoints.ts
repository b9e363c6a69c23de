import { EXCHANGE_PROVIDERS } from '@updown/schemas/api';
import type { ExchangeEndpoints } from './ccxt-endpoints.domain';

export type { ExchangeEndpoints };

/**
 * `EXCHANGE_ENDPOINTS` read: a JSON object from provider name to `{rest, ws}` URLs; empty means
 * none. Throws a readable error for anything else, so a typo fails at start, not at first use.
 */
export function parseExchangeEndpoints(text: string): Readonly<Record<string, ExchangeEndpoints>> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('must be a JSON object such as {"BINANCE":{"rest":"http://…","ws":"ws://…"}}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('must be a JSON object from provider name to {rest, ws}');
  }
  const out: Record<string, ExchangeEndpoints> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (!(EXCHANGE_PROVIDERS as readonly string[]).includes(name)) {
      throw new Error(`${name} is not an exchange provider (${EXCHANGE_PROVIDERS.join(', ')})`);
    }
    const { rest, ws } = (value ?? {}) as { rest?: unknown; ws?: unknown };
    if (!isUrl(rest, ['http:', 'https:']) || !isUrl(ws, ['ws:', 'wss:'])) {
      throw new Error(`${name} needs "rest" (http or https) and "ws" (ws or wss) URLs`);
    }
    out[name] = { rest, ws };
  }
  return out;
}

function isUrl(value: unknown, protocols: readonly string[]): value is string {
  if (typeof value !== 'string') return false;
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
