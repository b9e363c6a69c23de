import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '@updown/gateway';
import {
  AUTHORIZATION_MATRIX,
  PRINCIPALS,
  matchesRoute,
  matrixGaps,
  type CaseContext,
  type CaseRequest,
  type MatrixEntry,
  type Principal,
} from './authorization-matrix';
import { startMatrixFixtures, type Identity, type MatrixFixtures } from './matrix-fixtures';

/** Every registered route × every principal against the expected table (authorization-matrix.ts). */
describe('authorization matrix', () => {
  let fx: MatrixFixtures;

  beforeAll(async () => {
    fx = await startMatrixFixtures();
  }, 120_000);
  afterAll(async () => {
    await fx?.stop();
  });

  it('has an entry for every registered route', () => {
    const { missing } = matrixGaps(registeredRoutes(fx.platform.gateway.app), AUTHORIZATION_MATRIX);
    expect(missing, 'routes without an entry in security/authorization-matrix.ts').toEqual([]);
  });

  it('names only registered routes', () => {
    const { stale } = matrixGaps(registeredRoutes(fx.platform.gateway.app), AUTHORIZATION_MATRIX);
    expect(stale, 'entries in security/authorization-matrix.ts that name no registered route').toEqual([]);
  });

  // One test per route, in table order: each case makes what it changes for itself.
  for (const [route, entry] of Object.entries(AUTHORIZATION_MATRIX)) {
    it(
      route,
      async () => {
        const actual: Partial<Record<Principal, number>> = {};
        for (const principal of PRINCIPALS) actual[principal] = await runCase(fx, route, entry, principal);
        expect(actual).toEqual(entry.expect);
      },
      90_000,
    );
  }
});

async function runCase(
  fx: MatrixFixtures,
  route: string,
  entry: MatrixEntry,
  principal: Principal,
): Promise<number> {
  const caller = await callerOf(fx, entry, principal);
  const context: CaseContext = {
    principal,
    caller,
    fx,
    refreshCredential: () => refreshCredential(fx, principal, caller),
  };
  const request = await entry.request(context);
  const [method, pattern] = route.split(' ') as [string, string];
  if (request.method !== method || !matchesRoute(pattern, request.url)) {
    throw new Error(`${route}: the case sends ${request.method} ${request.url}, another route`);
  }
  const token = entry.credential === 'refresh-query' ? undefined : await bearerOf(fx, principal, caller);
  const headers = {
    ...request.headers,
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  };
  if (entry.websocket) return upgradeStatus(fx.port, request, headers);
  const res = await fx.inject({
    method: request.method,
    url: request.url,
    headers,
    payload: request.payload,
  });
  return res.statusCode;
}

async function callerOf(
  fx: MatrixFixtures,
  entry: MatrixEntry,
  principal: Principal,
): Promise<Identity | undefined> {
  const { owner, other, admin } = fx.principals;
  switch (principal) {
    case 'user':
      return entry.freshCaller ? fx.freshUser() : owner;
    case 'otherUser':
      return entry.freshCaller ? fx.freshUser() : other;
    case 'admin':
      return entry.freshCaller ? fx.freshAdmin() : admin;
    default:
      return undefined;
  }
}

async function bearerOf(
  fx: MatrixFixtures,
  principal: Principal,
  caller: Identity | undefined,
): Promise<string | undefined> {
  switch (principal) {
    case 'anonymous':
      return undefined;
    case 'expiredToken':
      return fx.expiredAccessToken();
    case 'tamperedToken':
      return fx.tamperedAccessToken();
    case 'twoFactorToken':
      return fx.temporaryToken();
    case 'revokedRefresh':
      return fx.principals.revokedRefreshToken;
    case 'endedSession':
      return fx.principals.endedSession.accessToken;
    default:
      return caller?.accessToken;
  }
}

async function refreshCredential(
  fx: MatrixFixtures,
  principal: Principal,
  caller: Identity | undefined,
): Promise<string | undefined> {
  switch (principal) {
    case 'anonymous':
      return undefined;
    case 'expiredToken':
      return fx.principals.expiredRefreshToken;
    case 'tamperedToken':
      return fx.tamperedRefreshToken();
    case 'twoFactorToken':
      return fx.temporaryToken();
    case 'revokedRefresh':
      return fx.principals.revokedRefreshToken;
    case 'endedSession':
      return fx.principals.endedSession.refreshToken;
    default:
      return caller && fx.freshRefreshToken(caller);
  }
}

/** The HTTP status the upgrade request gets over a real connection: 101 when the socket opens. */
function upgradeStatus(port: number, request: CaseRequest, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${request.url}`, { headers });
    socket.once('upgrade', (res) => {
      resolve(res.statusCode ?? 0);
      socket.close();
    });
    socket.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      socket.terminate();
    });
    socket.once('error', reject);
  });
}
