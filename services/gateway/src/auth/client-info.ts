import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '@updown/accounts';

/** The client of a request, as the accounts commands take it: `request.ip` (see TRUST_PROXY) and the user agent. */
export function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { address: request.ip, userAgent: typeof agent === 'string' ? agent : undefined };
}
