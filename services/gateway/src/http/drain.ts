import type { GatewayInstance } from './instance';

/**
 * Graceful close for keep-alive clients. `close()` stops accepting connections and drops idle
 * ones (`forceCloseConnections: 'idle'`), but a connection whose request is still running turns
 * idle only after its response and would then hold shutdown until the client's keep-alive timer
 * fires. Responses sent while closing therefore carry `Connection: close`, so the socket ends with
 * the response. Requests that still arrive on an open connection are served normally (with the
 * same header) rather than refused, since the database closes only after HTTP has drained.
 */
export function registerDrain(app: GatewayInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
