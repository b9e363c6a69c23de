import { createHash } from 'node:crypto';
import Bowser from 'bowser';
import { clientBinding } from './security.domain';
import type { ClientSeen } from './security.repository';

/** Where a request comes from: the client address (the edge's `request.ip`, see TRUST_PROXY) and its user agent. */
export interface ClientInfo {
  readonly address: string;
  readonly userAgent: string | undefined;
}

/** Stored columns are bounded; a longer user agent is cut, which still names the browser. */
const USER_AGENT_LENGTH_MAX = 512;
const ADDRESS_LENGTH_MAX = 64;

export function clientSeen(client: ClientInfo): ClientSeen {
  return {
    address: client.address.slice(0, ADDRESS_LENGTH_MAX),
    userAgent: client.userAgent === undefined ? null : client.userAgent.slice(0, USER_AGENT_LENGTH_MAX),
  };
}

/** The client a refresh token is bound to (see `clientBinding`); the user agent only as a digest. */
export function bindingOf(client: ClientInfo): string {
  const digest = createHash('sha256')
    .update(client.userAgent ?? '')
    .digest('base64url')
    .slice(0, 22);
  return clientBinding(client.address, digest);
}

/** A person's name for the device behind a user agent, such as "Chrome on Linux". */
export function deviceName(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === '') return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  // Bowser names what it does not recognise (curl, node, a bot) with an empty string, not undefined.
  const browser = parsed.browser.name || undefined;
  const os = parsed.os.name || undefined;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? userAgent.trim().slice(0, 60);
}
