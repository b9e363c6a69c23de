import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  SessionFormHeaders,
  StatusOkResponse,
  StepUpRequest,
  TokenPairResponse,
  TwoFactorChangeRequest,
  TwoFactorCodeRequest,
  TwoFactorSetupResponse,
} from '@updown/schemas/api';
import { errorResponses } from '../http/responses';
import type { AuthContext } from './auth.context';
import type { AuthHook, AuthHooks } from './auth.hooks';
import { sessionAnswer } from './auth.routes';
import { clientOf } from './client-info';
import {
  disableTwoFactorWithCode,
  enableTwoFactorWithCode,
  setupTwoFactor,
  type StepUpProof,
  verifyTwoFactorLogin,
} from '@updown/accounts';

const tags = ['two-factor'];
const security = [{ bearerAuth: [] }];

const STEP_UP_NOTE =
  'A sensitive action: send `password` (and `totp_code` when two-factor is on) in the body, or step up first with `POST /api/auth/step-up`; otherwise 403 `STEP_UP_REQUIRED` and nothing changes.';

/** The proof in a body that may be absent: Fastify leaves `body` undefined when none was sent. */
function stepUpProof(body: StepUpRequest | null | undefined): StepUpProof | undefined {
  return body ? { password: body.password, totpCode: body.totp_code } : undefined;
}

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
          description: STEP_UP_NOTE,
          security,
          // Null: no body (the session stepped up already). The document shows the body as optional.
          body: Type.Union([StepUpRequest, Type.Null()]),
          response: { 200: TwoFactorSetupResponse, ...errorResponses(400, 401, 403, 409, 429) },
        },
      },
      async (request) => setupTwoFactor(ctx, request.user, stepUpProof(request.body), clientOf(request)),
    );

    app.post(
      '/api/2fa/enable',
      {
        onRequest: [limit, hooks.authenticate],
        schema: {
          tags,
          summary: 'Turn two-factor on with a first code from the authenticator app',
          description: `${STEP_UP_NOTE} The setup's step-up covers it for 5 minutes.`,
          security,
          body: TwoFactorChangeRequest,
          response: { 200: StatusOkResponse, ...errorResponses(400, 401, 403, 409, 429) },
        },
      },
      async (request) => {
        const { token, password } = request.body;
        const proof = password === undefined ? undefined : { password };
        await enableTwoFactorWithCode(ctx, request.user, token, proof, clientOf(request));
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
          await verifyTwoFactorLogin(ctx, request.user.id, request.body.token, clientOf(request)),
        ),
    );

    app.post(
      '/api/2fa/disable',
      {
        onRequest: [limit, hooks.authenticate],
        schema: {
          tags,
          summary: 'Turn two-factor off; needs a current code and a step-up',
          description:
            'With `password`, this request is its own step-up and `token` is its code. Without it, the session needs a step-up from the last 5 minutes (403 `STEP_UP_REQUIRED` otherwise) and `token` must be a code not used by that step-up.',
          security,
          body: TwoFactorChangeRequest,
          response: { 200: StatusOkResponse, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (request) => {
        const { token, password } = request.body;
        await disableTwoFactorWithCode(ctx, request.user, { code: token, password }, clientOf(request));
        return { status: 'ok' as const };
      },
    );
  };
}
