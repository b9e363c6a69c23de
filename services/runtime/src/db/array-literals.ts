/**
 * PostgreSQL array literals (`{1,2.5}`, `{"BTC/USD"}`, `{\\x00ff}`) for set-based writes (the
 * feed's batches, the placement batch's statements), sent as one text parameter each and cast in
 * the statement (`$1::float8[]`, `$1::uuid[]`, `$1::timestamptz[]`).
 *
 * node-postgres turns a JS array parameter into the same literal itself, but it quotes and
 * regex-escapes every element and grows the result one concatenation at a time: for the feed's
 * five batches a second that was the single largest allocation of an idle process. Here numbers
 * are joined once, and a text element's quoted form is kept per distinct value where values
 * repeat (pair symbols, account codes); ids and keys that are new on every call are quoted
 * without being kept (`uncachedTextArray`).
 */

/** Distinct quoted texts kept; past it the cache starts over (pair symbols are a few dozen). */
const QUOTED_TEXTS_MAX = 1024;
const quotedTexts = new Map<string, string>();

// Inside double quotes an array element needs only backslash and double quote escaped.
const quote = (text: string) => `"${text.replace(/[\\"]/g, '\\$&')}"`;

function quoted(text: string): string {
  let out = quotedTexts.get(text);
  if (out === undefined) {
    out = quote(text);
    if (quotedTexts.size >= QUOTED_TEXTS_MAX) quotedTexts.clear();
    quotedTexts.set(text, out);
  }
  return out;
}

/** `{…}` of numbers as JavaScript prints them (as node-postgres would), which PostgreSQL reads back exactly. */
export function numberArray<T>(rows: readonly T[], value: (row: T) => number): string {
  return `{${rows.map(value).join(',')}}`;
}

/** `{1,NULL}`: as `numberArray`, with `NULL` for a null. */
export function nullableNumberArray<T>(rows: readonly T[], value: (row: T) => number | null): string {
  return `{${rows.map((row) => value(row) ?? 'NULL').join(',')}}`;
}

/** `{"a","b"}`: every element quoted, so no text is read as NULL or split at a comma. */
export function textArray<T>(rows: readonly T[], value: (row: T) => string): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) parts[i] = quoted(value(rows[i]!));
  return `{${parts.join(',')}}`;
}

/**
 * `{"a","b"}` as `textArray`, for values seen once (trade ids, idempotency keys, timestamps as
 * ISO text): their quoted forms are not kept, so they do not push the repeated ones out.
 */
export function uncachedTextArray<T>(rows: readonly T[], value: (row: T) => string): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) parts[i] = quote(value(rows[i]!));
  return `{${parts.join(',')}}`;
}

/**
 * `{"a",NULL}`: as `textArray`, with an unquoted `NULL` for a null. For free text (error messages):
 * its quoted forms are not kept.
 */
export function nullableTextArray<T>(rows: readonly T[], value: (row: T) => string | null): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const text = value(rows[i]!);
    parts[i] = text === null ? 'NULL' : quote(text);
  }
  return `{${parts.join(',')}}`;
}

/** `{\\x…}`: each buffer in bytea's hex form, its backslash escaped for the array parser. */
export function byteaArray<T>(rows: readonly T[], value: (row: T) => Buffer): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) parts[i] = `\\\\x${value(rows[i]!).toString('hex')}`;
  return `{${parts.join(',')}}`;
}
