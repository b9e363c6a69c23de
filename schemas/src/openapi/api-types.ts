/**
 * Generated from the OpenAPI document (schemas/openapi.json) by openapi-typescript.
 * Do not edit: change the route schemas and run `npm run api:types`.
 */
export interface paths {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness: the process is serving HTTP */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Liveness: the process is serving HTTP */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['HealthResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness: the database is reachable and migrated */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Readiness: the database is reachable and migrated */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReadinessResponse'];
          };
        };
        /** @description Not ready, or a service behind the gateway is unavailable; safe to retry */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['NotReadyResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics
     * @description With `METRICS_TOKEN` set, the scrape must send `Authorization: Bearer <token>` (401 otherwise); with `METRICS_PORT` set, this route is served on that port only (README "Metrics").
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Every series, in the Prometheus text exposition format (version 0.0.4) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'text/plain': string;
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create an account (with 10,000.00 on demo) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['RegisterRequest'];
        };
      };
      responses: {
        /** @description Create an account (with 10,000.00 on demo) */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['User'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with email and password
     * @description Starts a session. With the header `X-Updown-Session: cookie` (browsers) the refresh token is set as the HttpOnly cookie `updown_refresh` (Path=/api/auth, SameSite=Strict) with its CSRF token in the cookie `updown_csrf`, and `refresh_token` in the body is empty. Failed sign-ins are throttled by account and client address (429 `RATE_LIMITED` with `Retry-After`, the password unchecked). After many failures on one account, an address it never signed in from is answered 429 `EXTRA_VERIFICATION_REQUIRED` until the request also carries the account's current authenticator code in `totp_code`; with the right password and a fresh code the session starts at once, without the second step.
     */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description `cookie` (browsers): the session is answered as the HttpOnly cookie `updown_refresh` (Path=/api/auth, SameSite=Strict) with its CSRF token in the cookie `updown_csrf`, and `refresh_token` in the body is empty. Absent, or any other value: the refresh token is in the body. */
          'x-updown-session'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['LoginRequest'];
        };
      };
      responses: {
        /** @description Sign in with email and password */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['LoginResponse'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/refresh': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Exchange a refresh token for a new access token and the next refresh token
     * @description Send the refresh token in the JSON body `{"refresh_token": "..."}`. The query form `?refresh_token=` is accepted for clients that cannot send a body, but a URL lands in access logs and proxies. Both at once must be equal. Browsers send neither: the `updown_refresh` cookie goes by itself, and must come with the header `X-CSRF-Token` holding the value of the `updown_csrf` cookie (403 `CSRF_REJECTED` otherwise, and nothing changes).
     */
    post: {
      parameters: {
        query?: {
          /** @description The refresh token, for clients that cannot send a body. Prefer the JSON body: a URL lands in logs and proxies. When both are sent they must be equal. */
          refresh_token?: string;
        };
        header?: {
          /** @description `cookie` (browsers): the session is answered as the HttpOnly cookie `updown_refresh` (Path=/api/auth, SameSite=Strict) with its CSRF token in the cookie `updown_csrf`, and `refresh_token` in the body is empty. Absent, or any other value: the refresh token is in the body. */
          'x-updown-session'?: string;
          /** @description The value of the `updown_csrf` cookie. Required when the refresh token comes in the `updown_refresh` cookie (403 `CSRF_REJECTED` otherwise, and nothing changes); not read otherwise. */
          'x-csrf-token'?: string;
        };
        path?: never;
        cookie?: {
          /** @description The browser's refresh token, set by a sign-in with `X-Updown-Session: cookie`. Used when neither the body nor the query carries `refresh_token`, and only with `X-CSRF-Token`. */
          updown_refresh?: string;
        };
      };
      requestBody?: {
        content: {
          'application/json': components['schemas']['RefreshTokenBody'] | (never | null);
        };
      };
      responses: {
        /** @description Exchange a refresh token for a new access token and the next refresh token */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TokenPair'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * End the session of a refresh token, and its access tokens at once; answers ok for unknown tokens too
     * @description Send the refresh token in the JSON body `{"refresh_token": "..."}`. The query form `?refresh_token=` is accepted for clients that cannot send a body, but a URL lands in access logs and proxies. Both at once must be equal. Browsers send neither: the `updown_refresh` cookie goes by itself, and must come with the header `X-CSRF-Token` holding the value of the `updown_csrf` cookie (403 `CSRF_REJECTED` otherwise, and nothing changes).
     */
    post: {
      parameters: {
        query?: {
          /** @description The refresh token, for clients that cannot send a body. Prefer the JSON body: a URL lands in logs and proxies. When both are sent they must be equal. */
          refresh_token?: string;
        };
        header?: {
          /** @description The value of the `updown_csrf` cookie. Required when the refresh token comes in the `updown_refresh` cookie (403 `CSRF_REJECTED` otherwise, and nothing changes); not read otherwise. */
          'x-csrf-token'?: string;
        };
        path?: never;
        cookie?: {
          /** @description The browser's refresh token, set by a sign-in with `X-Updown-Session: cookie`. Used when neither the body nor the query carries `refresh_token`, and only with `X-CSRF-Token`. */
          updown_refresh?: string;
        };
      };
      requestBody?: {
        content: {
          'application/json': components['schemas']['RefreshTokenBody'] | (never | null);
        };
      };
      responses: {
        /** @description End the session of a refresh token, and its access tokens at once; answers ok for unknown tokens too */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['StatusOk'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/logout-all': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Log out everywhere: end every session of the caller, this one included
     * @description Every refresh token of the account is revoked and every access token is refused from the next request on, in every gateway (within the ended-session sync interval, 1 s, for the others).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Log out everywhere: end every session of the caller, this one included */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['SessionsEnded'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Change the caller's password; every other session ends
     * @description Needs the current password (wrong ones are throttled like sign-ins) and, when two-factor is on, `totp_code` (400 `TWO_FACTOR_CODE_REQUIRED` without it): they are this request's step-up. The session that asks continues; every other session of the account ends, its access tokens included.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['ChangePasswordRequest'];
        };
      };
      responses: {
        /** @description Change the caller's password; every other session ends */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['SessionsEnded'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The signed-in user */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The signed-in user */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['User'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/google-login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in (or sign up) with a Google ID token
     * @description Starts a session. With the header `X-Updown-Session: cookie` (browsers) the refresh token is set as the HttpOnly cookie `updown_refresh` (Path=/api/auth, SameSite=Strict) with its CSRF token in the cookie `updown_csrf`, and `refresh_token` in the body is empty.
     */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description `cookie` (browsers): the session is answered as the HttpOnly cookie `updown_refresh` (Path=/api/auth, SameSite=Strict) with its CSRF token in the cookie `updown_csrf`, and `refresh_token` in the body is empty. Absent, or any other value: the refresh token is in the body. */
          'x-updown-session'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['GoogleLoginRequest'];
        };
      };
      responses: {
        /** @description Sign in (or sign up) with a Google ID token */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['LoginResponse'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not configured on this server */
        501: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/2fa/setup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start setup: a new secret, its otpauth URL and a QR code
     * @description A sensitive action: send `password` (and `totp_code` when two-factor is on) in the body, or step up first with `POST /api/auth/step-up`; otherwise 403 `STEP_UP_REQUIRED` and nothing changes.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: {
        content: {
          'application/json': components['schemas']['StepUpRequest'] | (never | null);
        };
      };
      responses: {
        /** @description Start setup: a new secret, its otpauth URL and a QR code */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TwoFactorSetup'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/2fa/enable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Turn two-factor on with a first code from the authenticator app
     * @description A sensitive action: send `password` (and `totp_code` when two-factor is on) in the body, or step up first with `POST /api/auth/step-up`; otherwise 403 `STEP_UP_REQUIRED` and nothing changes. The setup's step-up covers it for 5 minutes.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['TwoFactorChangeRequest'];
        };
      };
      responses: {
        /** @description Turn two-factor on with a first code from the authenticator app */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['StatusOk'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/2fa/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Second step of sign-in; the bearer is the temporary token from login
     * @description Starts the session. With the header `X-Updown-Session: cookie` (browsers) the refresh token is set as the HttpOnly cookie `updown_refresh` and `refresh_token` in the body is empty.
     */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description `cookie` (browsers): the session is answered as the HttpOnly cookie `updown_refresh` (Path=/api/auth, SameSite=Strict) with its CSRF token in the cookie `updown_csrf`, and `refresh_token` in the body is empty. Absent, or any other value: the refresh token is in the body. */
          'x-updown-session'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['TwoFactorCodeRequest'];
        };
      };
      responses: {
        /** @description Second step of sign-in; the bearer is the temporary token from login */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TokenPair'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/2fa/disable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Turn two-factor off; needs a current code and a step-up
     * @description With `password`, this request is its own step-up and `token` is its code. Without it, the session needs a step-up from the last 5 minutes (403 `STEP_UP_REQUIRED` otherwise) and `token` must be a code not used by that step-up.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['TwoFactorChangeRequest'];
        };
      };
      responses: {
        /** @description Turn two-factor off; needs a current code and a step-up */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['StatusOk'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/step-up': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm the password (and authenticator code) before a sensitive action
     * @description For 5 minutes after it, this session may turn two-factor on or off and change the password without sending the password again. Wrong passwords are throttled like sign-ins (400 `WRONG_PASSWORD`, then 429); with two-factor on, `totp_code` is required (400 `TWO_FACTOR_CODE_REQUIRED`) and spent.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['StepUpRequest'];
        };
      };
      responses: {
        /** @description Confirm the password (and authenticator code) before a sensitive action */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['StepUp'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/sessions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller's sessions that can still be renewed, this one marked current */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The caller's sessions that can still be renewed, this one marked current */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ActiveSessionList'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/sessions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * End one of the caller's sessions, and its access tokens at once
     * @description 404 `SESSION_NOT_FOUND` for a session that is not the caller's or has ended already; nothing changes then.
     */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description End one of the caller's sessions, and its access tokens at once */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['StatusOk'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/security-activity': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's security activity, newest first
     * @description Sign-ins (address and device), bursts of failed sign-ins, two-factor and password changes, sessions ended, and a refresh token used twice (every session then ends). Paged by `cursor`.
     */
    get: {
      parameters: {
        query?: {
          limit?: number;
          /** @description next_cursor of the previous page */
          cursor?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The caller's security activity, newest first */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['SecurityActivity'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/users/{id}/security-activity': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A user's security activity, newest first */
    get: {
      parameters: {
        query?: {
          limit?: number;
          /** @description next_cursor of the previous page */
          cursor?: string;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A user's security activity, newest first */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['SecurityActivity'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/market/pairs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Trading pairs, in display order; disabled pairs are listed with active false */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Trading pairs, in display order; disabled pairs are listed with active false */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['MarketPairList'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/market/candles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The most recent candles of a pair, oldest first; the last one is still moving */
    get: {
      parameters: {
        query: {
          /** @description Pair symbol such as BTCUSDT (any case) */
          pair: string;
          /** @description Candle length: 1m, 5m, 15m, 30m or 1h */
          timeframe: components['schemas']['MarketTimeframe'];
          /** @description How many of the most recent candles, 1 to 1000; more is refused (400) */
          limit?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Oldest first */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CandleList'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/trades/place': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Place a trade
     * @description Takes the entry price from the latest tick the server holds. Honours `Idempotency-Key`: a retry returns the first trade and debits once. Refusals with 409: `STALE_PRICE`, `FEEDS_DIVERGED` (the feeds), `PAYOUT_CHANGED` (the payout offered on the direction fell below `payout_pct`), `PAIR_SUSPENDED` (the loss breaker holds real trades on the pair), `EXPOSURE_CAP_REACHED` (the pair and direction), `OPEN_STAKE_CAP_REACHED` and `OPEN_TRADES_CAP_REACHED` (the trader's caps), `IDEMPOTENCY_CONFLICT`.
     */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description A retry with the same key returns the first trade and debits once */
          'idempotency-key'?: string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['PlaceTradeBody'];
        };
      };
      responses: {
        /** @description Place a trade */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Trade'];
          };
        };
        /** @description Place a trade */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Trade'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not ready, or a service behind the gateway is unavailable; safe to retry */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/trades/active': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Pending trades whose expiry is in the future */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Pending trades whose expiry is in the future */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ActiveTradeList'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/trades/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Trades, newest first */
    get: {
      parameters: {
        query?: {
          /** @description How many of the newest trades, 1 to 100; more is refused (400) */
          limit?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Trades, newest first */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TradeList'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/trades/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A trade with the stored ticks it entered and settled on
     * @description The owner or an admin. Shows the exact entry and exit ticks and the stored ticks around each.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A trade with the stored ticks it entered and settled on */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TradeEvidence'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/wallet': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Balances and bonus */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Balances and bonus */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Wallet'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/wallet/transactions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Movements on real, bonus and demo, newest first */
    get: {
      parameters: {
        query?: {
          /** @description How many of the newest movements, 1 to 200; more is refused (400) */
          limit?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Movements on real, bonus and demo, newest first */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WalletTransactionList'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/wallet/deposit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Deposit (demo at once; real through the payment provider, or pending approval) */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description A retry with the same key returns the first deposit and moves the money once */
          'idempotency-key'?: string;
        };
        path?: never;
        cookie?: never;
      };
      /** @description account_type defaults to real */
      requestBody: {
        content: {
          'application/json': components['schemas']['DepositBody'];
        };
      };
      responses: {
        /** @description Deposit (demo at once; real through the payment provider, or pending approval) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WalletCommandResponse'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The payment provider declined the payment */
        402: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/wallet/withdraw': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Request a withdrawal: the cash is held until an admin decides; an active bonus is forfeited
     * @description Real funds only, and only once the trader's identity is verified: before that, 403 `IDENTITY_NOT_VERIFIED` and nothing moves (upload a photo ID and a proof of address, `POST /api/identity/documents`, and submit them, `POST /api/identity/submit`). Honours `Idempotency-Key`: a retry answers as the first request did. 400 `INSUFFICIENT_FUNDS`, `DEMO_WITHDRAWAL`, `INVALID_AMOUNT`; 409 `IDEMPOTENCY_CONFLICT`.
     */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** @description A retry with the same key returns the first withdrawal request and holds the money once */
          'idempotency-key'?: string;
        };
        path?: never;
        cookie?: never;
      };
      /** @description account_type defaults to real; demo funds cannot be withdrawn */
      requestBody: {
        content: {
          'application/json': components['schemas']['WithdrawBody'];
        };
      };
      responses: {
        /** @description Request a withdrawal: the cash is held until an admin decides; an active bonus is forfeited */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WalletCommandResponse'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/wallet/cancel-bonus': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Forfeit the active bonus */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Forfeit the active bonus */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Wallet'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/identity': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller's identity verification: status, what is missing, documents, decision */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The caller's identity verification: status, what is missing, documents, decision */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Identity'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/identity/documents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Upload a photo ID or a proof of address: multipart/form-data with a field kind (photo_id or proof_of_address) and a file field file; JPEG, PNG or PDF (checked from the content), at most 10 MB; at most 20 uploads an account in 24 hours (429 with Retry-After) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'multipart/form-data': components['schemas']['IdentityUploadForm'];
        };
      };
      responses: {
        /** @description Upload a photo ID or a proof of address: multipart/form-data with a field kind (photo_id or proof_of_address) and a file field file; JPEG, PNG or PDF (checked from the content), at most 10 MB; at most 20 uploads an account in 24 hours (429 with Retry-After) */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['IdentityDocument'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send multipart/form-data */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/identity/submit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send the latest photo ID and proof of address with the legal name and date of birth for review; pending until an admin decides */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['IdentitySubmitRequest'];
        };
      };
      responses: {
        /** @description Send the latest photo ID and proof of address with the legal name and date of birth for review; pending until an admin decides */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Identity'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/identity/documents/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A document file as uploaded, to its owner or an admin (404 to anyone else); never cached */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The file, with its detected Content-Type */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'image/jpeg': string;
            'image/png': string;
            'application/pdf': string;
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List users */
    get: {
      parameters: {
        query?: {
          limit?: number;
          offset?: number;
          /** @description `registered`: newest first. `toxicity`: highest toxicity score first, unscored last */
          sort?: 'registered' | 'toxicity';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description List users */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['AdminUserList'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/risk': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Live exposure per pair and direction against its cap, house P/L per pair today, suspended pairs, default trader caps and the top traders by toxicity */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Live exposure per pair and direction against its cap, house P/L per pair today, suspended pairs, default trader caps and the top traders by toxicity */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['RiskOverview'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/risk/pairs/{symbol}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** Set a pair's exposure caps, payout skew and loss breaker; applies to the next placement */
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          symbol: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['UpdatePairRiskBody'];
        };
      };
      responses: {
        /** @description Set a pair's exposure caps, payout skew and loss breaker; applies to the next placement */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['PairRisk'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/risk/pairs/{symbol}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Lift the loss breaker: real placements on the pair are taken again, and its window counts from the next whole minute */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          symbol: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Lift the loss breaker: real placements on the pair are taken again, and its window counts from the next whole minute */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['PairRisk'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/risk/traders': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** The default caps on every trader's open real trades (a trader's own caps can only be lower) */
    put: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['UpdateTraderLimitsBody'];
        };
      };
      responses: {
        /** @description The default caps on every trader's open real trades (a trader's own caps can only be lower) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TraderRiskDefaults'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/users/{id}/limits': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** Set a trader's own caps on open real trades, lower than the defaults; nulls fall back to the defaults */
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['UpdateTraderLimitsBody'];
        };
      };
      responses: {
        /** @description A trader's own lower caps; null fields fall back to the defaults */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TraderLimits'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/verifications': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Identity submissions: the pending queue oldest first (default), or decided ones newest first, with duplicate-account signals */
    get: {
      parameters: {
        query?: {
          /** @description Which submissions: pending (the queue, oldest first; the default) or decided ones, newest first */
          status?: 'pending' | 'verified' | 'rejected' | 'all';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Identity submissions: the pending queue oldest first (default), or decided ones newest first, with duplicate-account signals */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['VerificationList'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/verifications/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One submission with its documents and the trader's every submission and decision */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description One submission with its documents and the trader's every submission and decision */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['VerificationDetail'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    /** Approve (the trader's real withdrawals open at once) or reject with a reason the trader sees; exactly once, never one's own */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['VerificationDecisionRequest'];
        };
      };
      responses: {
        /** @description Approve (the trader's real withdrawals open at once) or reject with a reason the trader sees; exactly once, never one's own */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['VerificationSummary'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/pairs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** All pairs, disabled ones included */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description All pairs, disabled ones included */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['MarketPairList'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    /** Add a pair; the price feed picks it up by itself */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            symbol: string;
            display_name: string;
            /**
             * @description The price source: OTC, BINANCE, COINBASE, KRAKEN
             * @default OTC
             * @enum {string}
             */
            provider?: 'OTC' | 'BINANCE' | 'COINBASE' | 'KRAKEN';
            /** @description The exchange's own symbol, e.g. BTC/USDT */
            provider_symbol?: string | null;
            /**
             * @description The exchange prices are checked against (BINANCE, COINBASE, KRAKEN); null for none
             * @enum {string|null}
             */
            reference_provider?: 'BINANCE' | 'COINBASE' | 'KRAKEN' | null;
            /** @description The exchange's own symbol, e.g. BTC/USDT */
            reference_symbol?: string | null;
            /** @description Largest allowed disagreement with the reference, basis points (1 to 1000) */
            reference_spread_bps?: number | null;
          };
        };
      };
      responses: {
        /** @description Add a pair; the price feed picks it up by itself */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['MarketPair'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/feeds': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every pair's feed and reference feed, with their health as price-ingest last reported it */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Every pair's feed and reference feed, with their health as price-ingest last reported it */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['AdminFeedList'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/pairs/{symbol}/feed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** Replace a pair's price feed and reference feed; price-ingest switches within its pairs poll, without a restart */
    put: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          symbol: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['UpdatePairFeedBody'];
        };
      };
      responses: {
        /** @description Replace a pair's price feed and reference feed; price-ingest switches within its pairs poll, without a restart */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['MarketPair'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/pairs/{symbol}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete a pair that has no pending trades */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          symbol: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Delete a pair that has no pending trades */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['StatusOk'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    options?: never;
    head?: never;
    /** Enable or disable a pair */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          symbol: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            active: boolean;
          };
        };
      };
      responses: {
        /** @description Enable or disable a pair */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['MarketPair'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    trace?: never;
  };
  '/api/admin/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Platform settings */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Platform settings */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['PlatformSettings'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    /** Change the payout (new trades only; every pair follows) and the deposit-approval rule */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Percent, 1 to 100, at most 2 decimals */
            payout_pct?: number;
            require_deposit_approval?: boolean;
          };
        };
      };
      responses: {
        /** @description Change the payout (new trades only; every pair follows) and the deposit-approval rule */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['PlatformSettings'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/deposits': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Deposits, newest first */
    get: {
      parameters: {
        query?: {
          limit?: number;
          status?: 'pending' | 'approved' | 'rejected';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Deposits, newest first */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['PaymentRequestList'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/deposits/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Approve or reject a pending request (exactly once) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            action: 'approve' | 'reject';
          };
        };
      };
      responses: {
        /** @description Approve or reject a pending request (exactly once) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['PaymentRequest'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The payment provider declined the payment */
        402: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/withdrawals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Withdrawals, newest first */
    get: {
      parameters: {
        query?: {
          limit?: number;
          status?: 'pending' | 'approved' | 'rejected';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Withdrawals, newest first */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['PaymentRequestList'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/withdrawals/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Approve or reject a pending request (exactly once) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            action: 'approve' | 'reject';
          };
        };
      };
      responses: {
        /** @description Approve or reject a pending request (exactly once) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['PaymentRequest'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The payment provider declined the payment */
        402: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/leaderboard/daily': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Top 20 by today's P/L (UTC day) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Top 20 by today's P/L (UTC day) */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Leaderboard'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/leaderboard/daily/position/{user_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A user's place today: one's own, or anyone's for an admin; rank null without trades today */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          user_id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A user's place today: one's own, or anyone's for an admin; rank null without trades today */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['LeaderboardEntry'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/updown-keys.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The public keys that sign checkpoints and receipts
     * @description JWKS; each key’s `kid` is its RFC 7638 thumbprint. Retired keys stay listed so older receipts still verify.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description JWKS (RFC 7517) of the Ed25519 keys that sign checkpoints and receipts */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['KeySet'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/checkpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Signed checkpoints of a pair’s tick chain, newest first
     * @description Public. Each signs the chain head, the tick count and the time range since the previous one.
     */
    get: {
      parameters: {
        query: {
          /** @description Pair symbol such as BTCUSDT (any case) */
          pair: string;
          limit?: number;
          /** @description Only checkpoints ending before this seq (paging) */
          before?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Signed checkpoints of a pair’s tick chain, newest first */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CheckpointList'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/trades/{id}/receipt': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The signed receipt of a settled trade, with its proof
     * @description The owner or an admin. 409 `RECEIPT_PENDING` until a signed checkpoint covers the exit (one per pair per minute by default). Verify it offline: `npx updown-verify receipt.json --keys updown-keys.json`.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A settled trade’s signed receipt and its proof (docs/receipts.md); verify it offline with `npx updown-verify` */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReceiptDocument'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/trades/{id}/disputes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Dispute a settled trade
     * @description The owner, within 24 hours of settlement, one open dispute per trade. The settlement is replayed at once from the chain-verified ticks; the answer carries the verdict ("confirmed" or "mismatch") and its evidence. A trader may have at most 20 open disputes (429 `OPEN_DISPUTES_CAP_REACHED`) and file at most 50 in any 24 hours (429 `DAILY_DISPUTES_CAP_REACHED`, with `Retry-After` until a slot frees).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['DisputeBody'];
        };
      };
      responses: {
        /** @description Dispute a settled trade */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Dispute'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Too many requests; `detail` says when to try again */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/disputes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller’s disputes, newest first */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The caller’s disputes, newest first */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['DisputeList'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/disputes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Disputes, newest first, a page at a time, by status, trader, pair and filing time
     * @description Keyset paging: pass the answer’s `next_cursor` back as `cursor` (with the same filters) until it is null. Disputes filed meanwhile appear at the top of the first page, never inside a later one, so paging to the end reaches every dispute that matched when it began. A malformed cursor or filter, or `from` not earlier than `to`, is a 400.
     */
    get: {
      parameters: {
        query?: {
          /** @description Only disputes in this status; every status when left out */
          status?: 'open' | 'confirmed' | 'corrected';
          /** @description Only this trader's disputes: their user id, or their email address (any case) */
          trader?: string;
          /** @description Pair symbol such as BTCUSDT (any case) */
          pair?: string;
          /** @description Only disputes filed at or after this time (ISO 8601 with a time zone) */
          from?: string;
          /** @description Only disputes filed before this time (ISO 8601 with a time zone) */
          to?: string;
          /** @description The previous page's `next_cursor` */
          cursor?: string;
          /** @description Disputes per page, 1 to 200 */
          limit?: number;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Disputes, newest first, a page at a time, by status, trader, pair and filing time */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['AdminDisputePage'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/disputes/{id}/resolve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resolve a dispute: confirm the settlement, or correct it through the ledger
     * @description "correct" only when the replay found a different result: the difference is paid (or reclaimed) as the dispute’s own idempotent ledger entry. An admin cannot resolve a dispute of their own trade.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': components['schemas']['ResolveDisputeBody'];
        };
      };
      responses: {
        /** @description Resolve a dispute: confirm the settlement, or correct it through the ledger */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['AdminDispute'];
          };
        };
        /** @description Refused: the request breaks a rule; `detail` says which, `code` is stable */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description No valid credential: a missing, expired or wrong token */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Signed in, but this account may not do this */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Not found (or not yours) */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Conflicts with the current state; `detail` says how */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body is larger than the server accepts (BODY_LIMIT_BYTES) */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The URL is longer than the server accepts: a path parameter over 100 characters */
        414: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description The body was sent with a content type the server does not read; send application/json */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
        /** @description Server error; `detail` never shows internals */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorResponse'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** AccountType */
    AccountType: 'demo' | 'real';
    /** ActiveSession */
    ActiveSession: {
      /**
       * Format: uuid
       * @description The session id
       */
      id: string;
      /** Format: date-time */
      signed_in_at: string;
      /**
       * Format: date-time
       * @description The last sign-in or token renewal (access tokens renew every few minutes while in use)
       */
      last_seen_at: string;
      /** @description The client address last seen; null if unknown */
      address: string | null;
      /** @description Browser and system, such as "Chrome on Linux", or "Unknown device" */
      device: string;
      /** @description Whether this is the session making the request */
      current: boolean;
    };
    /** ActiveSessionList */
    ActiveSessionList: {
      /** @description Most recently seen first */
      sessions: components['schemas']['ActiveSession'][];
    };
    /** ActiveTrade */
    ActiveTrade: {
      /** Format: uuid */
      id: string;
      pair: string;
      direction: components['schemas']['Direction'];
      amount: number;
      entry_price: number;
      /** @description Expiry, Unix epoch seconds (rounded up) */
      expiry_ts: number;
      /** @enum {string} */
      status: 'pending';
      payout_pct: number;
      account_type: components['schemas']['AccountType'];
      /**
       * Format: date-time
       * @description When the trade was placed, ISO 8601
       */
      created_at: string;
    };
    /** ActiveTradeList */
    ActiveTradeList: components['schemas']['ActiveTrade'][];
    /** AdminDispute */
    AdminDispute: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      trade_id: string;
      pair: string;
      reason: string;
      status: 'open' | 'confirmed' | 'corrected';
      replay: {
        verdict: 'confirmed' | 'mismatch';
        summary: string;
        steps: {
          id: string;
          title: string;
          status: 'ok' | 'fail' | 'warn' | 'skipped';
          detail: string;
        }[];
        recorded: {
          outcome: 'won' | 'lost' | 'draw' | 'void';
          /** @description Dollars */
          pnl: number;
        };
        replayed: {
          outcome: ('won' | 'lost' | 'draw' | 'void') | (never | null);
          /** @description Dollars */
          pnl: number | null;
        };
      };
      /** @description Dollars to the trader; negative reclaims */
      correction: number | null;
      resolution_note: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      resolved_at: string | null;
      /** Format: uuid */
      user_id: string;
      user_email: string | null;
      resolved_by: string | null;
    };
    /** AdminDisputePage */
    AdminDisputePage: {
      /** @description Newest first */
      disputes: components['schemas']['AdminDispute'][];
      /** @description Pass as `cursor` for the next page, with the same filters; null on the last page */
      next_cursor: string | null;
    };
    /** AdminFeedList */
    AdminFeedList: {
      /** @description The providers a pair can be given */
      providers: string[];
      items: components['schemas']['AdminPairFeed'][];
    };
    /** AdminPairFeed */
    AdminPairFeed: {
      pair: string;
      active: boolean;
      feed_status: components['schemas']['FeedStatus'];
      /** @description How far the feed and its reference are apart now, basis points; null without both prices */
      divergence_bps: number | null;
      spread_bps: number | null;
      primary: components['schemas']['FeedHealth'];
      reference: components['schemas']['FeedHealth'] | (never | null);
    };
    /** AdminUser */
    AdminUser: {
      /** Format: uuid */
      id: string;
      name: string;
      email: string;
      role: components['schemas']['UserRole'];
      twofa_enabled: boolean;
      /**
       * Format: date-time
       * @description When the user registered, ISO 8601
       */
      created_at: string;
      stats?: components['schemas']['AdminUserStats'];
      toxicity?: components['schemas']['ToxicityScore'] | (never | null);
      limits?: components['schemas']['TraderLimits'] | (never | null);
    };
    /** AdminUserList */
    AdminUserList: components['schemas']['AdminUser'][];
    /** AdminUserStats */
    AdminUserStats: {
      real_balance: number;
      demo_balance: number;
      /** @description Settled real trades (void ones excluded) */
      total_trades: number;
      /** @description Won / total_trades x 100, 1 decimal */
      win_rate: number;
      /** @description Sum of the P/L of settled real trades, dollars */
      net_pnl: number;
    };
    /**
     * BonusStatus
     * @description Status of the latest first-deposit bonus
     */
    BonusStatus: 'active' | 'completed' | 'forfeited' | 'expired';
    /** Candle */
    Candle: {
      /** @description Start of the candle, Unix epoch seconds */
      time: number;
      open: number;
      high: number;
      low: number;
      /** @description The last price; still moving while the candle is current */
      close: number;
      /** @description Tick volume: the prices observed in the candle (an OTC feed has no traded volume) */
      volume: number;
    };
    /**
     * CandleList
     * @description Oldest first
     */
    CandleList: components['schemas']['Candle'][];
    /** ChainTick */
    ChainTick: {
      /** @description The tick's place in its pair's chain */
      seq: number;
      /** @description Unix epoch milliseconds */
      atMs: number;
      /** @description The shortest decimal that round-trips the stored binary64 price */
      price: string;
      /** @description SHA-256, lowercase hex */
      prevHash: string;
      /** @description SHA-256, lowercase hex */
      hash: string;
    };
    /** ChangePasswordRequest */
    ChangePasswordRequest: {
      current_password: string;
      /** @description 8 to 128 characters, not only spaces */
      new_password: string;
      /** @description The account's current 6-digit authenticator code; required when two-factor is on */
      totp_code?: string;
    };
    /** CheckpointList */
    CheckpointList: components['schemas']['SignedCheckpoint'][];
    /**
     * DepositBody
     * @description account_type defaults to real
     */
    DepositBody: {
      /** @description Dollars, more than 0 and at most 100,000.00, at most 2 decimals */
      amount: number;
      account_type?: components['schemas']['WalletAccountType'];
    };
    /** Direction */
    Direction: 'UP' | 'DOWN';
    /** DirectionExposure */
    DirectionExposure: {
      /** @description Open real trades on this side */
      open_trades: number;
      /** @description Their stakes, dollars */
      open_stake: number;
      /** @description What they win if this side wins (stake x payout), dollars */
      potential_profit: number;
      /** @description The house's loss if this side wins: potential_profit minus the other side's open stakes, dollars (negative: the house gains) */
      exposure: number;
      /** @description The cap, dollars; null for none */
      cap: number | null;
      /** @description exposure / cap x 100, 1 decimal, 0 when exposure is negative; null without a cap */
      used_pct: number | null;
      /** @description The payout offered on this side now (after skew) */
      payout_pct: number;
    };
    /** Dispute */
    Dispute: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      trade_id: string;
      pair: string;
      reason: string;
      status: 'open' | 'confirmed' | 'corrected';
      replay: {
        verdict: 'confirmed' | 'mismatch';
        summary: string;
        steps: {
          id: string;
          title: string;
          status: 'ok' | 'fail' | 'warn' | 'skipped';
          detail: string;
        }[];
        recorded: {
          outcome: 'won' | 'lost' | 'draw' | 'void';
          /** @description Dollars */
          pnl: number;
        };
        replayed: {
          outcome: ('won' | 'lost' | 'draw' | 'void') | (never | null);
          /** @description Dollars */
          pnl: number | null;
        };
      };
      /** @description Dollars to the trader; negative reclaims */
      correction: number | null;
      resolution_note: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      resolved_at: string | null;
    };
    /** DisputeBody */
    DisputeBody: {
      /** @description What the trader believes is wrong */
      reason: string;
    };
    /** DisputeList */
    DisputeList: components['schemas']['Dispute'][];
    /**
     * DuplicateSignal
     * @description Another account that may belong to the same person
     */
    DuplicateSignal: {
      /** Format: uuid */
      user_id: string;
      email: string;
      reason: 'same_document' | 'same_name_and_birth_date';
    };
    /** ErrorResponse */
    ErrorResponse: {
      /** @description Human-readable explanation, safe to show to the user */
      detail: string;
      /**
       * @description Stable machine-readable error code
       * @example VALIDATION
       */
      code: string;
    };
    /** FeedHealth */
    FeedHealth: {
      provider: string;
      source_symbol: string | null;
      /** @description `live`: a tick in the last 5 s. `stale`: connected or not, no tick for 5 s. `down`: the feed is not reporting (price-ingest not running, or not serving this pair). */
      state: 'live' | 'stale' | 'down';
      /** @description Null before the first tick */
      last_tick_age_ms: number | null;
      /** @description Over the last minute */
      ticks_per_sec: number;
      /** @description Since price-ingest started */
      reconnects: number;
      /** @description Silences of 5 s or more since price-ingest started */
      gaps: number;
      /** @description Messages skipped as unreadable since price-ingest started */
      malformed: number;
      last_error: string | null;
    };
    /**
     * FeedStatus
     * @description `live`: tradable. `paused`: the feed (or its reference) sent no tick for 5 s. `diverged`: the feed and its reference disagree by more than the pair's spread. Only `live` pairs are tradable.
     */
    FeedStatus: 'live' | 'paused' | 'diverged';
    /** GoogleLoginRequest */
    GoogleLoginRequest: {
      email?: string | null;
      name?: string | null;
      picture?: string | null;
      /** @description A Google ID token (JWT) */
      session_token: string;
    };
    /** HealthResponse */
    HealthResponse: {
      /** @enum {string} */
      status: 'ok';
    };
    /** Identity */
    Identity: {
      status: components['schemas']['IdentityStatus'];
      missing: components['schemas']['IdentityDocumentKind'][];
      documents: components['schemas']['IdentityDocument'][];
      full_name: string | null;
      /** Format: date */
      date_of_birth: string | null;
      /** @description Set when status is rejected */
      rejection_reason: string | null;
      /** Format: date-time */
      submitted_at: string | null;
      /** Format: date-time */
      decided_at: string | null;
      /** @description True once verified: real withdrawals are open */
      can_withdraw: boolean;
    };
    /** IdentityDocument */
    IdentityDocument: {
      /** Format: uuid */
      id: string;
      kind: components['schemas']['IdentityDocumentKind'];
      /** @description Detected from the file content, not from its name or the upload header */
      content_type: 'image/jpeg' | 'image/png' | 'application/pdf';
      size_bytes: number;
      /** @description SHA-256 of the file, hex */
      sha256: string;
      /** @description Page count of a PDF; null for an image */
      pages: number | null;
      /** Format: date-time */
      uploaded_at: string;
    };
    /**
     * IdentityDocumentKind
     * @description photo_id: passport, national ID card or driving licence; proof_of_address: a utility bill or bank statement
     */
    IdentityDocumentKind: 'photo_id' | 'proof_of_address';
    /** IdentityStatus */
    IdentityStatus: 'not_started' | 'pending' | 'verified' | 'rejected';
    /** IdentitySubmitRequest */
    IdentitySubmitRequest: {
      /** @description Legal name as on the photo ID (a name of spaces or punctuation only is refused) */
      full_name: string;
      /**
       * Format: date
       * @description YYYY-MM-DD
       */
      date_of_birth: string;
    };
    /** IdentityUploadForm */
    IdentityUploadForm: {
      kind: components['schemas']['IdentityDocumentKind'];
      /**
       * Format: binary
       * @description A JPEG, PNG or PDF of at most 10 MB, judged from its bytes: the part's file name and Content-Type are ignored
       */
      file: string;
    };
    /**
     * KeySet
     * @description JWKS (RFC 7517) of the Ed25519 keys that sign checkpoints and receipts
     */
    KeySet: {
      keys: {
        /** @enum {string} */
        kty: 'OKP';
        /** @enum {string} */
        crv: 'Ed25519';
        x: string;
        kid: string;
        /** @enum {string} */
        use: 'sig';
        /** @enum {string} */
        alg: 'EdDSA';
        status: 'active' | 'retired';
      }[];
    };
    /** Leaderboard */
    Leaderboard: components['schemas']['LeaderboardEntry'][];
    /** LeaderboardEntry */
    LeaderboardEntry: {
      /** @description Null when the user has no settled real trade today */
      rank: number | null;
      /** Format: uuid */
      user_id: string;
      /** @description First name and initial, e.g. "Ann L." */
      name: string;
      /** @description Today's P/L of settled real trades, dollars */
      total_pnl: number;
      total_trades: number;
      /** @description Won / total_trades x 100, 1 decimal */
      win_rate: number;
    };
    /** LoginRequest */
    LoginRequest: {
      email: string;
      password: string;
      /** @description The account's current 6-digit authenticator code. Send it when a sign-in was answered 429 EXTRA_VERIFICATION_REQUIRED; with the right password and a code not used before, the session starts at once (no second step). When sent it is always checked: an account without two-factor has no right code. */
      totp_code?: string;
    };
    /** LoginResponse */
    LoginResponse: {
      /** @description A 15-minute access token; when requires_2fa is true, a 5-minute token accepted only by POST /api/2fa/verify */
      access_token: string;
      /** @description Opaque, single use; empty when requires_2fa is true (POST /api/2fa/verify returns it), and empty when the request asked for the cookie form (X-Updown-Session: cookie), which sets it as an HttpOnly cookie instead */
      refresh_token: string;
      requires_2fa: boolean;
    };
    /** MarketPair */
    MarketPair: {
      /** @description Pair symbol, upper case, e.g. BTCUSDT */
      symbol: string;
      /** @description Name shown on the pair buttons, e.g. BTC/USDT */
      display_name: string;
      /** @description False when an admin disabled the pair: listed, not tradable */
      active: boolean;
      /** @description Payout percentage of a winning trade, e.g. 80 */
      payout_pct: number;
      /** @description Price source: OTC (the built-in feed), BINANCE, COINBASE or KRAKEN */
      provider: string;
      /** @description The exchange's symbol the feed follows, e.g. BTC/USDT; null for OTC */
      provider_symbol: string | null;
      /** @description The second feed prices are checked against; null for none */
      reference_provider: string | null;
      /** @description The reference exchange's symbol; null for none */
      reference_symbol: string | null;
      /** @description Largest allowed disagreement between the feed and its reference, basis points; beyond it the pair pauses and trades entering or expiring then are void */
      reference_spread_bps: number | null;
      feed_status: components['schemas']['FeedStatus'];
      /** @description Payout offered on UP now: payout_pct, or less while UP is the heavier side of an imbalanced pair (risk skew) */
      payout_up_pct: number;
      /** @description Payout offered on DOWN now, as payout_up_pct */
      payout_down_pct: number;
      /** @description `suspended` while the loss circuit-breaker holds real placements on the pair (demo trading stays open) */
      real_trading: 'open' | 'suspended';
    };
    /** MarketPairList */
    MarketPairList: components['schemas']['MarketPair'][];
    /** MarketTimeframe */
    MarketTimeframe: '1m' | '5m' | '15m' | '30m' | '1h';
    /** NotReadyResponse */
    NotReadyResponse: {
      detail: string;
      /** @enum {string} */
      code: 'NOT_READY';
      checks: components['schemas']['ReadinessChecks'];
    };
    /** PairRisk */
    PairRisk: {
      /** @description Pair symbol, upper case, e.g. BTCUSDT */
      symbol: string;
      /** @description The pair's payout, before skew */
      payout_pct: number;
      settings: components['schemas']['PairRiskSettings'];
      up: components['schemas']['DirectionExposure'];
      down: components['schemas']['DirectionExposure'];
      /** @description House's real P/L on the pair since 00:00 UTC, dollars */
      pnl_today: number;
      /** @description House's real P/L over the breaker's window (since the last resume, if later), dollars */
      pnl_window: number;
      /** @description True while the breaker holds real placements on the pair */
      suspended: boolean;
      /** Format: date-time */
      suspended_at: string | null;
      suspended_reason: string | null;
    };
    /**
     * PairRiskSettings
     * @description A pair's risk settings, as `UpdatePairRiskBody` sets them
     */
    PairRiskSettings: {
      /** @description Cap on UP exposure, dollars; null for none */
      exposure_cap_up: number | null;
      /** @description Cap on DOWN exposure, dollars; null for none */
      exposure_cap_down: number | null;
      /** @description Most points the heavier side's payout drops; 0 for no skew */
      skew_max_pct: number;
      /** @description Imbalance of open real stakes at which the whole skew applies, dollars */
      skew_full_at: number;
      /** @description Loss limit of the breaker, dollars; null for no breaker */
      loss_limit: number | null;
      /** @description Rolling window of the breaker, minutes */
      loss_window_min: number;
    };
    /** PaymentRequest */
    PaymentRequest: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      user_id: string;
      amount: number;
      account_type: components['schemas']['WalletAccountType'];
      status: components['schemas']['PaymentRequestStatus'];
      /**
       * Format: date-time
       * @description When the request was made, ISO 8601
       */
      created_at: string;
      identity_status?: components['schemas']['IdentityStatus'];
    };
    /** PaymentRequestList */
    PaymentRequestList: components['schemas']['PaymentRequest'][];
    /** PaymentRequestStatus */
    PaymentRequestStatus: 'pending' | 'approved' | 'rejected';
    /** PlaceTradeBody */
    PlaceTradeBody: {
      /** @description Pair symbol such as BTCUSDT (any case) */
      pair: string;
      direction: components['schemas']['Direction'];
      /** @description Stake in dollars, $1.00 to $5,000.00, at most 2 decimals. With an active bonus a real stake is also at most 20% of the bonus. */
      amount: number;
      /**
       * @description Seconds: 60, 120, 180, 240, 300, 900, 1800, 2700, 3600
       * @enum {integer}
       */
      duration: 60 | 120 | 180 | 240 | 300 | 900 | 1800 | 2700 | 3600;
      account_type?: components['schemas']['AccountType'];
      /** @description The payout the trader was shown for this direction. If the trade would now get less (the payout is skewed as one side grows), it is refused with 409 `PAYOUT_CHANGED` instead of placed; omitted, the trade takes the payout in force. */
      payout_pct?: number;
    };
    /** PlatformSettings */
    PlatformSettings: {
      payout_pct: number;
      require_deposit_approval: boolean;
    };
    /** ReadinessChecks */
    ReadinessChecks: {
      [key: string]: boolean | string;
    };
    /** ReadinessResponse */
    ReadinessResponse: {
      /** @enum {string} */
      status: 'ok';
      checks: components['schemas']['ReadinessChecks'];
    };
    /** Receipt */
    Receipt: {
      /** @enum {string} */
      type: 'updown.receipt.v1';
      /** Format: uuid */
      receiptId: string;
      /** Format: uuid */
      tradeId: string;
      /** Format: uuid */
      userId: string;
      pair: string;
      direction: 'UP' | 'DOWN';
      account: 'demo' | 'real';
      stakeCents: number;
      /** @description Payout percent × 100 */
      payoutBasisPoints: number;
      acceptedAtMs: number;
      /** @description The exact expiry, Unix epoch milliseconds */
      expiryAtMs: number;
      /** @description The shortest decimal that round-trips the stored binary64 price */
      entryPrice: string;
      entryTick: components['schemas']['ChainTick'] | (never | null);
      exitTick: components['schemas']['ChainTick'] | (never | null);
      afterExpiryTick: components['schemas']['ChainTick'] | (never | null);
      outcome: 'won' | 'lost' | 'draw' | 'void';
      rule: string;
      pnlCents: number;
      ledgerKey: string;
      ledgerEntryIds: string[];
      settledAtMs: number;
      checkpoints: {
        entry: {
          toSeq: number;
          /** @description SHA-256, lowercase hex */
          headHash: string;
        } | null;
        exit: {
          toSeq: number;
          /** @description SHA-256, lowercase hex */
          headHash: string;
        } | null;
      };
      issuedAtMs: number;
    };
    /**
     * ReceiptDocument
     * @description A settled trade’s signed receipt and its proof (docs/receipts.md); verify it offline with `npx updown-verify`
     */
    ReceiptDocument: {
      receipt: components['schemas']['Receipt'];
      signature: components['schemas']['Signature'];
      proof: {
        entry: {
          checkpoint: components['schemas']['SignedCheckpoint'];
          segment: components['schemas']['ChainTick'][];
        } | null;
        exit: {
          checkpoint: components['schemas']['SignedCheckpoint'];
          segment: components['schemas']['ChainTick'][];
        } | null;
      };
    };
    /**
     * ReferenceCheck
     * @description The cross-check against the reference feed, as settlement decided it; null when the pair had no reference then
     */
    ReferenceCheck: {
      /** @description The reference feed */
      provider: string;
      /** @description The largest disagreement the pair allowed at settlement */
      spread_bps: number;
      entry: {
        /** @description The pair's feed: the price in force at that moment */
        price: number;
        /** @description The reference feed's price in force at that moment; null when it had none in the 10 s before */
        reference_price: number | null;
        reference_at_ms: number | null;
        /** @description |price - reference| / reference, basis points */
        divergence_bps: number | null;
      };
      /** @description Null when the trade had no exit price */
      expiry: {
        /** @description The pair's feed: the price in force at that moment */
        price: number;
        /** @description The reference feed's price in force at that moment; null when it had none in the 10 s before */
        reference_price: number | null;
        reference_at_ms: number | null;
        /** @description |price - reference| / reference, basis points */
        divergence_bps: number | null;
      } | null;
      /** @description `reference_unavailable`: the reference had no price at a moment, so the trade settled on its own feed */
      decision: 'agreed' | 'feeds_diverged_at_entry' | 'feeds_diverged_at_expiry' | 'reference_unavailable';
    };
    /** RefreshTokenBody */
    RefreshTokenBody: {
      /** @description The refresh token */
      refresh_token: string;
    };
    /** RegisterRequest */
    RegisterRequest: {
      /** @description The name shown to others; at most 100 characters, runs of spaces collapsed */
      name: string;
      /** @description An email address such as ann@example.com; stored trimmed and lower-cased */
      email: string;
      /** @description 8 to 128 characters, not only spaces */
      password: string;
    };
    /** ResolveDisputeBody */
    ResolveDisputeBody: {
      decision: 'confirm' | 'correct';
      note: string;
    };
    /** RiskOverview */
    RiskOverview: {
      pairs: components['schemas']['PairRisk'][];
      trader_defaults: components['schemas']['TraderRiskDefaults'];
      /** @description Highest toxicity first, at most 10 */
      top_traders: components['schemas']['RiskTrader'][];
      /** Format: date-time */
      generated_at: string;
    };
    /** RiskTrader */
    RiskTrader: {
      /** Format: uuid */
      user_id: string;
      name: string;
      email: string;
      toxicity: components['schemas']['ToxicityScore'];
      limits: components['schemas']['TraderLimits'] | (never | null);
    };
    /** SecurityActivity */
    SecurityActivity: {
      /** @description Newest first */
      events: components['schemas']['SecurityEvent'][];
      /** @description Pass as cursor for older events; null on the last page */
      next_cursor: string | null;
    };
    /** SecurityEvent */
    SecurityEvent: {
      /** @description Opaque; newer events have larger ids */
      id: string;
      kind: components['schemas']['SecurityEventKind'];
      /** @description One sentence for people, the same in every view */
      description: string;
      /** Format: date-time */
      occurred_at: string;
      address: string | null;
      device: string;
      /** Format: uuid */
      session_id: string | null;
    };
    /** SecurityEventKind */
    SecurityEventKind:
      | 'sign_in'
      | 'sign_in_failures'
      | 'two_factor_enabled'
      | 'two_factor_disabled'
      | 'password_changed'
      | 'session_ended'
      | 'all_sessions_ended'
      | 'refresh_token_reused';
    /** SessionsEnded */
    SessionsEnded: {
      /** @enum {string} */
      status: 'ok';
      /** @description How many sessions ended; their access tokens are refused from now on */
      sessions_ended: number;
    };
    /** Signature */
    Signature: {
      /** @enum {string} */
      alg: 'Ed25519';
      /** @description RFC 7638 thumbprint of the signing key (see the key set) */
      kid: string;
      /** @description The 64-byte Ed25519 signature, base64url without padding */
      sig: string;
    };
    /** SignedCheckpoint */
    SignedCheckpoint: {
      checkpoint: {
        /** @enum {string} */
        type: 'updown.checkpoint.v1';
        pair: string;
        fromSeq: number;
        toSeq: number;
        ticks: number;
        fromMs: number;
        toMs: number;
        /** @description SHA-256, lowercase hex */
        startHash: string;
        /** @description SHA-256, lowercase hex */
        headHash: string;
        signedAtMs: number;
      };
      signature: components['schemas']['Signature'];
    };
    /** StatusOk */
    StatusOk: {
      /** @enum {string} */
      status: 'ok';
    };
    /** StepUp */
    StepUp: {
      /** @enum {string} */
      status: 'ok';
      /**
       * Format: date-time
       * @description Until when sensitive actions on this session need no new password check, ISO 8601
       */
      step_up_expires_at: string;
    };
    /** StepUpRequest */
    StepUpRequest: {
      password: string;
      /** @description The account's current 6-digit authenticator code; required when two-factor is on */
      totp_code?: string;
    };
    /** TickRef */
    TickRef: {
      id: number | null;
      /** @description When the price was observed, Unix epoch milliseconds */
      ts: number;
      price: number;
    };
    /** TokenPair */
    TokenPair: {
      access_token: string;
      /** @description The next refresh token; the one presented is now spent. Empty in the cookie form (X-Updown-Session: cookie, or a refresh by cookie), which sets it as an HttpOnly cookie instead */
      refresh_token: string;
    };
    /**
     * ToxicityScore
     * @description A trader's toxicity score (README "Risk controls"); null on a user before their first scored trade
     */
    ToxicityScore: {
      /** @description 0 (plays like chance) to 100 (toxic) */
      score: number;
      /** @description Settled real won/lost trades in the window */
      trades: number;
      wins: number;
      /** @description How far the trader's P/L is above what chance would give at their payouts, in standard deviations */
      z_score: number;
      /** @description Share of their trades placed within seconds of a large price move on the pair, in the move's direction, % */
      after_move_pct: number;
      /** @description Gross profit / gross loss; null without a loss */
      profit_factor: number | null;
      /** @description The parts the score is made of */
      components: {
        /** @description 0-1, from z_score */
        skill: number;
        /** @description 0-1, from after_move_pct */
        latency: number;
        /** @description 0-1, from profit_factor, shrunk toward 0 for few trades */
        profit: number;
      };
      window_days: number;
      /** Format: date-time */
      computed_at: string;
    };
    /** Trade */
    Trade: {
      /** Format: uuid */
      id: string;
      pair: string;
      direction: components['schemas']['Direction'];
      /** @description Stake in dollars */
      amount: number;
      entry_price: number;
      exit_price: number | null;
      payout_pct: number;
      /** @description `draw`: exit equals entry, stake refunded. `void`: no price in the 10 s before expiry, or the pair's two feeds disagreed at entry or expiry; stake refunded (`void_reason` says which). */
      status: 'pending' | 'won' | 'lost' | 'draw' | 'void';
      /** @description Profit or loss in dollars; null while pending */
      pnl: number | null;
      /**
       * Format: date-time
       * @description When the trade was placed, ISO 8601
       */
      created_at: string;
      /** @description Expiry, Unix epoch seconds (rounded up) */
      expiry_ts: number;
      account_type: components['schemas']['AccountType'];
      /** @description Length of the trade, seconds */
      duration: number;
      /** @description The exact expiry, Unix epoch milliseconds: the exit tick is the last at or before it */
      expiry_at_ms: number;
      /** @description When the trade was settled, Unix epoch milliseconds; null while pending */
      settled_at_ms: number | null;
      /** @description Why a void trade was voided; null for every other status (and for trades voided before reasons were kept) */
      void_reason: components['schemas']['VoidReason'] | (never | null);
      /**
       * Format: uuid
       * @description Id of the signed receipt (GET /api/trades/{id}/receipt) once settled; null while pending
       */
      receipt_id: string | null;
    };
    /** TradeEvidence */
    TradeEvidence: {
      trade: components['schemas']['Trade'];
      reference_check: components['schemas']['ReferenceCheck'] | (never | null);
      entry_tick: components['schemas']['TickRef'] | (never | null);
      exit_tick: components['schemas']['TickRef'] | (never | null);
      /** @description Stored ticks from 10 s before to 5 s after entry */
      entry_window: components['schemas']['TickRef'][];
      /** @description Stored ticks from 10 s before to 5 s after expiry */
      exit_window: components['schemas']['TickRef'][];
    };
    /** TradeList */
    TradeList: components['schemas']['Trade'][];
    /**
     * TraderLimits
     * @description A trader's own lower caps; null fields fall back to the defaults
     */
    TraderLimits: {
      max_open_stake: number | null;
      max_open_trades: number | null;
    };
    /** TraderRiskDefaults */
    TraderRiskDefaults: {
      /** @description Most a trader may have staked on open real trades, dollars; null for no cap */
      max_open_stake: number | null;
      /** @description Most open real trades a trader may have; null for no cap */
      max_open_trades: number | null;
    };
    /** TwoFactorChangeRequest */
    TwoFactorChangeRequest: {
      /** @description The 6-digit code */
      token: string;
      /** @description The account password: this request is its own step-up */
      password?: string;
    };
    /** TwoFactorCodeRequest */
    TwoFactorCodeRequest: {
      /** @description The 6-digit code */
      token: string;
    };
    /** TwoFactorSetup */
    TwoFactorSetup: {
      /** @description Base32 TOTP secret, for manual entry */
      secret: string;
      otpauth_url: string;
      /** @description PNG data URL of the otpauth URL */
      qr_code: string;
    };
    /** UpdatePairFeedBody */
    UpdatePairFeedBody: {
      /**
       * @description The price source: OTC, BINANCE, COINBASE, KRAKEN
       * @enum {string}
       */
      provider: 'OTC' | 'BINANCE' | 'COINBASE' | 'KRAKEN';
      /** @description The exchange's own symbol, e.g. BTC/USDT */
      provider_symbol?: string | null;
      /**
       * @description The exchange prices are checked against (BINANCE, COINBASE, KRAKEN); null for none
       * @enum {string|null}
       */
      reference_provider?: 'BINANCE' | 'COINBASE' | 'KRAKEN' | null;
      /** @description The exchange's own symbol, e.g. BTC/USDT */
      reference_symbol?: string | null;
      /** @description Largest allowed disagreement with the reference, basis points (1 to 1000) */
      reference_spread_bps?: number | null;
    };
    /** UpdatePairRiskBody */
    UpdatePairRiskBody: {
      /** @description Most the house may lose on this pair's open real UP trades if UP wins (their potential profit minus the open DOWN stakes), dollars; null for no cap */
      exposure_cap_up: number | null;
      /** @description The same for DOWN; null for no cap */
      exposure_cap_down: number | null;
      /** @description Most points the heavier side's payout drops when the open real stakes are imbalanced; 0 turns skew off */
      skew_max_pct: number;
      /** @description Imbalance of open real stakes (heavier side minus lighter side, dollars) at which the whole skew applies; the drop grows linearly up to it */
      skew_full_at: number;
      /** @description Real placements on the pair are suspended when the house's real P/L on it over the window falls below minus this, dollars; null for no breaker */
      loss_limit: number | null;
      /** @description Rolling window of the loss circuit-breaker, minutes */
      loss_window_min: number;
    };
    /** UpdateTraderLimitsBody */
    UpdateTraderLimitsBody: {
      /** @description Most a trader may have staked on open real trades, dollars; null for no cap */
      max_open_stake: number | null;
      /** @description Most open real trades a trader may have; null for no cap */
      max_open_trades: number | null;
    };
    /** User */
    User: {
      /** Format: uuid */
      id: string;
      email: string;
      name: string;
      role: components['schemas']['UserRole'];
      twofa_enabled: boolean;
    };
    /**
     * UserRole
     * @description 'admin' marks an administrator
     */
    UserRole: 'user' | 'admin';
    /** VerificationDecisionRequest */
    VerificationDecisionRequest: {
      action: 'approve' | 'reject';
      /** @description Required to reject: what the trader must fix. Shown to the trader. */
      reason?: string;
    };
    /** VerificationDetail */
    VerificationDetail: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      user_id: string;
      email: string;
      /** @description The name on the account */
      account_name: string;
      /** @description The legal name submitted */
      full_name: string;
      /** Format: date */
      date_of_birth: string;
      status: 'pending' | 'verified' | 'rejected';
      /** Format: date-time */
      submitted_at: string;
      /** Format: date-time */
      decided_at: string | null;
      decided_by_email: string | null;
      rejection_reason: string | null;
      duplicate_signals: components['schemas']['DuplicateSignal'][];
      documents: components['schemas']['IdentityDocument'][];
      history: {
        /** Format: uuid */
        id: string;
        status: 'pending' | 'verified' | 'rejected';
        /** Format: date-time */
        submitted_at: string;
        /** Format: date-time */
        decided_at: string | null;
        decided_by_email: string | null;
        rejection_reason: string | null;
      }[];
    };
    /** VerificationList */
    VerificationList: components['schemas']['VerificationSummary'][];
    /** VerificationSummary */
    VerificationSummary: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      user_id: string;
      email: string;
      /** @description The name on the account */
      account_name: string;
      /** @description The legal name submitted */
      full_name: string;
      /** Format: date */
      date_of_birth: string;
      status: 'pending' | 'verified' | 'rejected';
      /** Format: date-time */
      submitted_at: string;
      /** Format: date-time */
      decided_at: string | null;
      decided_by_email: string | null;
      rejection_reason: string | null;
      duplicate_signals: components['schemas']['DuplicateSignal'][];
    };
    /** VoidReason */
    VoidReason: 'no_exit_tick' | 'exit_tick_too_old' | 'feeds_diverged_at_entry' | 'feeds_diverged_at_expiry';
    /** Wallet */
    Wallet: {
      /** @description Withdrawable cash (dollars, 2 decimals) */
      real_balance: number;
      /** @description Practice funds (dollars, 2 decimals) */
      demo_balance: number;
      /** @description Bonus funds not yet converted to cash (dollars, 2 decimals) */
      bonus_balance: number;
      bonus_status: components['schemas']['BonusStatus'] | (never | null);
      /** @description Turnover counted toward the bonus so far (dollars, 2 decimals) */
      bonus_turnover_progress: number;
      /** @description Turnover needed to complete the bonus (35 x bonus) (dollars, 2 decimals) */
      bonus_turnover_required: number;
      /**
       * Format: date-time
       * @description When the bonus expires, ISO 8601; null without a bonus
       */
      bonus_expires_at: string | null;
      first_deposit_bonus_used: boolean;
      /** @description The bonus credited (dollars, 2 decimals) */
      bonus_amount: number;
      /** @description Whole days until expiry, rounded up */
      bonus_days_remaining: number;
      /** @description Largest real stake per trade while the bonus is active (20% of the bonus) (dollars, 2 decimals) */
      bonus_max_stake: number;
    };
    /** WalletAccountType */
    WalletAccountType: 'real' | 'demo';
    /** WalletCommandResponse */
    WalletCommandResponse: {
      /** @description Withdrawable cash (dollars, 2 decimals) */
      real_balance: number;
      /** @description Practice funds (dollars, 2 decimals) */
      demo_balance: number;
      /** @description Bonus funds not yet converted to cash (dollars, 2 decimals) */
      bonus_balance: number;
      bonus_status: components['schemas']['BonusStatus'] | (never | null);
      /** @description Turnover counted toward the bonus so far (dollars, 2 decimals) */
      bonus_turnover_progress: number;
      /** @description Turnover needed to complete the bonus (35 x bonus) (dollars, 2 decimals) */
      bonus_turnover_required: number;
      /**
       * Format: date-time
       * @description When the bonus expires, ISO 8601; null without a bonus
       */
      bonus_expires_at: string | null;
      first_deposit_bonus_used: boolean;
      /** @description The bonus credited (dollars, 2 decimals) */
      bonus_amount: number;
      /** @description Whole days until expiry, rounded up */
      bonus_days_remaining: number;
      /** @description Largest real stake per trade while the bonus is active (20% of the bonus) (dollars, 2 decimals) */
      bonus_max_stake: number;
      status: 'completed' | 'pending';
      amount: number;
      request: components['schemas']['PaymentRequest'] | (never | null);
    };
    /** WalletTransaction */
    WalletTransaction: {
      id: number;
      /** @description deposit, withdrawal, trade_stake, trade_payout, bonus_credit, ... */
      type: string;
      /** @description Signed: positive is a credit (dollars, 2 decimals) */
      amount: number;
      /** @description Balance of the account after this movement (dollars, 2 decimals) */
      balance_after: number;
      /** @description real, bonus or demo */
      account_type: string;
      /**
       * Format: date-time
       * @description When the movement was posted, ISO 8601
       */
      created_at: string;
    };
    /** WalletTransactionList */
    WalletTransactionList: components['schemas']['WalletTransaction'][];
    /**
     * WithdrawBody
     * @description account_type defaults to real; demo funds cannot be withdrawn
     */
    WithdrawBody: {
      /** @description Dollars, more than 0 and at most 100,000.00, at most 2 decimals */
      amount: number;
      account_type?: components['schemas']['WalletAccountType'];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
