/**
 * The URL of a path template of the document: each `{name}` replaced by its URL-encoded parameter
 * (symbols may hold dots, dashes and slashes, and a path is no place to trust), then the query
 * string, without undefined or null values. The console's calls and the suites' client build their
 * URLs with it.
 */
export function urlOf(template: string, params?: unknown, query?: unknown): string {
  const values = (params ?? {}) as Record<string, string | number>;
  const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${template}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}
