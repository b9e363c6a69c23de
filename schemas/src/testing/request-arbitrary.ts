import fc from 'fast-check';
import { mutateObject, RawJson, toJsonText } from './mutations';
import { arbitraryFromSchema, type FieldHints, type JsonSchema } from './schema-arbitrary';

/**
 * An operation with at least one input schema (JSON Schema, as a route declares it or an OpenAPI
 * document states it): what generated requests are sent to.
 */
export interface FuzzTarget {
  readonly method: string;
  readonly url: string;
  readonly body: JsonSchema | undefined;
  readonly query: JsonSchema | undefined;
  readonly params: JsonSchema | undefined;
  /** Takes an `Idempotency-Key` header (money-moving commands). */
  readonly idempotent: boolean;
}

/** One request as `app.inject` takes it. */
export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload: string | undefined;
  /** What went into it, for a failure message. */
  readonly mutated: boolean;
}

/** A valid value of `schema`, or, `mutationShare` of the time, a mutation of one. */
function part(schema: JsonSchema, hints: FieldHints): fc.Arbitrary<{ value: unknown; mutated: boolean }> {
  const valid = arbitraryFromSchema(schema, hints);
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((value) => ({ value, mutated: false })) },
    {
      weight: 3,
      arbitrary: valid.chain((value) =>
        mutateObject(value as Record<string, unknown>, schema).map((mutant) => ({
          value: mutant,
          mutated: true,
        })),
      ),
    },
  );
}

/** A string for a query value or path segment, as a client would type it. */
function asText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** Percent-encodes, keeping what `encodeURIComponent` refuses (a lone surrogate) as raw UTF-8 escapes. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((ch) => (ch.length === 1 && /[\uD800-\uDFFF]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch)))
      .join('');
  }
}

function queryText(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof RawJson) {
    return encode(asText(value));
  }
  const pairs: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const values = Array.isArray(child) ? child : [child];
    for (const item of values) pairs.push(`${encode(key)}=${encode(asText(item))}`);
  }
  return pairs.join('&');
}

/** Query strings no encoder produces: broken escapes, empty keys, a huge value. */
const RAW_QUERY_TAILS = [
  '%ZZ=1',
  '%',
  'a=%C3%28',
  '%00=%00',
  '&&&',
  '=',
  'limit[]=1',
  `z=${'9'.repeat(10_000)}`,
];

function pathWith(url: string, params: unknown): string {
  return url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    if (params instanceof RawJson) return params.text;
    if (params === null || typeof params !== 'object' || Array.isArray(params)) return encode(asText(params));
    return encode(asText((params as Record<string, unknown>)[name]));
  });
}

/** Raw path segments an encoder never emits: bad escapes, traversal, a slash. */
const RAW_SEGMENTS = ['%', '%ZZ', '..', '%2e%2e', '%2F', 'a/b', '%00', '%C3%28'];

/** The `Idempotency-Key` header: fresh, repeated from a small set (so retries happen), or hostile. */
const idempotencyKey = fc.oneof(
  { weight: 5, arbitrary: fc.uuid() },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 7 }).map((n) => `fuzz-retry-${n}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', ' ', 'k'.repeat(129), '<script>alert(1)</script>', "' OR 1=1 --"),
  },
);

/** A request in one line of at most a few hundred characters. */
export function summarize(request: FuzzRequest): string {
  const cut = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}...(${text.length} chars)` : text);
  const body = request.payload === undefined ? '' : ` ${cut(request.payload)}`;
  return `${request.method} ${cut(request.url)} ${JSON.stringify(request.headers)}${body}`;
}

/** `arbitrary` one time in eight, otherwise null. */
function rarely<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

/** Requests for `target`: valid and mutated bodies, query strings, path parameters and keys. */
export function requestArbitrary(target: FuzzTarget, hints: FieldHints): fc.Arbitrary<FuzzRequest> {
  const none = fc.constant({ value: undefined, mutated: false });
  return fc
    .record({
      body: target.body ? part(target.body, hints) : none,
      query: target.query ? part(target.query, hints) : none,
      params: target.params ? part(target.params, hints) : none,
      rawQuery: rarely(fc.constantFrom(...RAW_QUERY_TAILS)),
      rawSegment: rarely(fc.constantFrom(...RAW_SEGMENTS)),
      key: target.idempotent ? fc.option(idempotencyKey, { freq: 10 }) : fc.constant(null),
    })
    .map(({ body, query, params, rawQuery, rawSegment, key }) => {
      let path = target.params ? pathWith(target.url, rawSegment ?? params.value) : target.url;
      const queries = [target.query ? queryText(query.value) : '', rawQuery ?? ''].filter((q) => q !== '');
      if (queries.length > 0) path += `?${queries.join('&')}`;
      const headers: Record<string, string> = {};
      if (key !== null) headers['idempotency-key'] = key;
      let payload: string | undefined;
      if (target.body) {
        headers['content-type'] = 'application/json';
        payload = body.value === undefined ? undefined : toJsonText(body.value);
      }
      const mutated =
        body.mutated || query.mutated || params.mutated || rawQuery !== null || rawSegment !== null;
      const request = { method: target.method, url: path, headers, payload, mutated };
      // Counterexamples can hold 20,000-character values; print them cut short.
      return Object.assign(request, { [fc.toStringMethod]: () => summarize(request) });
    });
}
