import type { RegisteredRoute } from '@updown/gateway';
import type { FuzzTarget, JsonSchema } from '@updown/schemas/testing';

/** Every HTTP route of the table that declares a body, query string or path parameter schema. */
export function fuzzTargets(routes: readonly RegisteredRoute[]): FuzzTarget[] {
  const targets: FuzzTarget[] = [];
  for (const route of routes) {
    const schema = route.schema;
    if (route.websocket || !schema) continue;
    const body = schema.body as JsonSchema | undefined;
    const query = schema.querystring as JsonSchema | undefined;
    const params = schema.params as JsonSchema | undefined;
    if (!body && !query && !params) continue;
    const headers = schema.headers as JsonSchema | undefined;
    const idempotent = headers?.properties?.['idempotency-key'] !== undefined;
    targets.push({ method: route.method, url: route.url, body, query, params, idempotent });
  }
  return targets;
}
