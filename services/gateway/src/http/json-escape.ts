import type { GatewayInstance } from './instance';

/** Characters that mean something to an HTML parser (or, the last two, to old JavaScript). */
const HTML_SIGNIFICANT = /[<>&\u2028\u2029]/g;
const ESCAPED: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON text with `<`, `>` and `&` written as `\u003c`, `\u003e`, `\u0026`: the same value for
 * any JSON parser, but no markup for anything that reads it as HTML. Outside strings JSON has none
 * of these characters, and inside a string the escape stands for the character, so a plain
 * replacement is exact.
 */
export function escapeJsonForHtml(json: string): string {
  return json.replace(HTML_SIGNIFICANT, (ch) => ESCAPED[ch]!);
}

/**
 * Every JSON answer goes out with its markup escaped. Answers echo what clients sent (`Unknown
 * pair: <SCRIPT>...` in a 400, a display name an admin typed); `application/json` with `nosniff`
 * already keeps browsers from rendering them, and this keeps a raw `<script` out of every body for
 * whatever else may read or embed one (a proxy's error page, a log viewer, a careless client).
 */
export function registerJsonEscape(app: GatewayInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (typeof payload !== 'string') return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) return payload;
    return escapeJsonForHtml(payload);
  });
}
