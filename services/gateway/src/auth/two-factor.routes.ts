import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  SessionFormHeaders,
  StatusOkResponse,
  TokenPairResponse,
  TwoFactorCodeRequest,
  TwoFactorSetupResponse,
} from '@updown/schemas/api';
import { errorResponses } from '../http/responses';
import type { AuthContext } from './auth.context';
import type { AuthHook, AuthHooks } from './auth.hooks';
import { sessionAnswer } from './auth.routes';
import {
  disableTwoFactorWithCode,
  enableTwoFactorWithCode,
  setupTwoFactor,
  verifyTwoFactorLogin,
} from './two-factor.handler';

const tags = ['two-factor'];
const security = [{ bearerAuth: [] }];

/** `/api/2fa/*`: TOTP setup, enable, the second step of sign-in, and disable. */
export function twoFactorRoutes(
  ctx: AuthContext,
  hooks: AuthHooks,
  limit: AuthHook,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api/2fa/setup',
      {
        onRequest: [limit, hooks.authenticate],
        schema: {
          tags,
          summary: 'Start setup: a new secret, its otpauth URL and a QR code',
          security,
          response: { 200: TwoFactorSetupResponse, ...errorResponses(401, 409, 429) },
        },
      },
      async (request) => setupTwoFactor(ctx, request.user.id),
    );

    app.post(
      '/api/2fa/enable',
      {
        onRequest: [limit, hooks.authenticate],
        schema: {
          tags,
          summary: 'Turn two-factor on with a first code from the authenticator app',
          security,
          body: TwoFactorCodeRequest,
          response: { 200: StatusOkResponse, ...errorResponses(400, 401, 409, 429) },
        },
      },
      async (request) => {
        await enableTwoFactorWithCode(ctx, request.user.id, request.body.token, request.ip);
        return { status: 'ok' as const };
      },
    );

    app.post(
      '/api/2fa/verify',
      {
        onRequest: [limit, hooks.authenticateTwoFactor],
        schema: {
          tags,
          summary: 'Second step of sign-in; the bearer is the temporary token from login',
          description:
            'Starts the session. With the header `X-Updown-Session: cookie` (browsers) the refresh token is set as the HttpOnly cookie `updown_refresh` and `refresh_token` in the body is empty.',
          security,
          body: TwoFactorCodeRequest,
          headers: SessionFormHeaders,
          response: { 200: TokenPairResponse, ...errorResponses(400, 401, 429) },
        },
      },
      async (request, reply) =>
        sessionAnswer(
          ctx,
          request,
          reply,
          await verifyTwoFactorLogin(ctx, request.user.id, request.body.token, request.ip),
        ),
    );

    app.post(
      '/api/2fa/disable',
      {
        onRequest: [limit, hooks.authenticate],
        schema: {
          tags,
          summary: 'Turn two-factor off; needs a current code',
          security,
          body: TwoFactorCodeRequest,
          response: { 200: StatusOkResponse, ...errorResponses(400, 401, 429) },
        },
      },
      async (request) => {
        await disableTwoFactorWithCode(ctx, request.user.id, request.body.token, request.ip);
        return { status: 'ok' as const };
      },
    );
  };
}
