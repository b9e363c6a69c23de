import { env, type Reader } from '@updown/runtime';
import { checkPassword, normaliseEmail, validateEmail } from '@updown/accounts';

export const GOOGLE_JWKS_DEFAULT = 'https://www.googleapis.com/oauth2/v3/certs';

/** The shortest `JWT_SECRET` production accepts: 32 characters, 256 bits if random. */
export const JWT_SECRET_LENGTH_MIN = 32;

const MINUTE = 60;

function urlWithDefault(fallback: string): Reader<string> {
  const url = env.url(['https', 'http'], fallback);
  return { describe: url.describe, read: (name, raw) => url.read(name, raw) ?? fallback };
}
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The variables of accounts and sessions, merged into the gateway's spec (`config.ts`) so one
 * `readEnv` call reports every bad variable. Durations are whole seconds, like the names say.
 */
export const authConfigSpec = {
  /**
   * HS256 key of access tokens. Required in production; in development and test an unset value
   * means a random key kept in `<DATA_DIR>/jwt-secret`, so restarts keep sessions.
   */
  JWT_SECRET: env.optionalString(),
  ACCESS_TOKEN_TTL_SEC: env.int(15 * MINUTE, { min: 60, max: DAY }),
  REFRESH_TOKEN_TTL_SEC: env.int(30 * DAY, { min: 5 * MINUTE, max: 365 * DAY }),
  /**
   * How long a spent refresh token may be exchanged again while the token that replaced it is
   * still unused (its answer was lost, or two tabs refreshed at once) before it counts as stolen;
   * 0 turns the exception off.
   */
  REFRESH_TOKEN_REUSE_GRACE_SEC: env.int(30, { min: 0, max: 5 * MINUTE }),
  /** The OAuth client id Google ID tokens must be issued to; unset turns Google sign-in off (501). */
  GOOGLE_CLIENT_ID: env.optionalString(),
  GOOGLE_JWKS_URL: urlWithDefault(GOOGLE_JWKS_DEFAULT),
  /** The first admin, created once at start when both are set. */
  ADMIN_EMAIL: env.optionalString(),
  ADMIN_PASSWORD: env.optionalString(),
  /**
   * The sign-in throttle (README "Rate limits"), over failed passwords and two-factor codes within
   * `AUTH_THROTTLE_WINDOW_SEC`. One account on one address: the first `AUTH_FREE_FAILURES` cost
   * nothing, then each makes the next attempt wait `AUTH_DELAY_BASE_SEC`, doubling, at most
   * `AUTH_DELAY_MAX_SEC`.
   */
  AUTH_FREE_FAILURES: env.int(3, { min: 0, max: 100 }),
  AUTH_DELAY_BASE_SEC: env.int(1, { min: 1, max: HOUR }),
  AUTH_DELAY_MAX_SEC: env.int(15 * MINUTE, { min: 1, max: DAY }),
  /** One address across accounts: at this many failures, every attempt from it is refused. */
  AUTH_ADDRESS_MAX_FAILURES: env.int(100, { min: 1, max: 1_000_000 }),
  /** One account across addresses: at this many failures, unknown addresses need the authenticator code. */
  AUTH_ACCOUNT_MAX_FAILURES: env.int(20, { min: 1, max: 1_000_000 }),
  AUTH_THROTTLE_WINDOW_SEC: env.int(HOUR, { min: MINUTE, max: 7 * DAY }),
  /** Ceiling on auth requests (login, register, refresh, 2FA verify, Google) per client IP. */
  AUTH_IP_RATE_MAX: env.int(300, { min: 1, max: 100_000 }),
  AUTH_IP_RATE_WINDOW_SEC: env.int(60, { min: 1, max: 3600 }),
};

interface AuthConfigView {
  readonly UPDOWN_ENV: string;
  readonly JWT_SECRET: string | undefined;
  readonly GOOGLE_JWKS_URL: string;
  readonly ADMIN_EMAIL: string | undefined;
  readonly ADMIN_PASSWORD: string | undefined;
  readonly AUTH_DELAY_BASE_SEC: number;
  readonly AUTH_DELAY_MAX_SEC: number;
  readonly AUTH_THROTTLE_WINDOW_SEC: number;
}

/**
 * Secrets that are placeholders copied from an example rather than generated. Only words of six
 * letters or more: a random 48-character secret contains one by chance with negligible probability,
 * where short words such as "dev" would reject about one random secret in five hundred.
 */
const PLACEHOLDER_SECRET = /change.?me|changeit|secret|default|example|placeholder|password|updown/i;

/**
 * Checks that span variables or depend on the environment kind. Messages name the variable but
 * never echo a secret's value.
 */
export function authConfigProblems(config: AuthConfigView): string[] {
  const problems: string[] = [];
  const production = config.UPDOWN_ENV === 'production';
  if (production) {
    const secret = config.JWT_SECRET;
    if (secret === undefined) {
      problems.push(
        'JWT_SECRET is required when UPDOWN_ENV=production (generate one: openssl rand -base64 48)',
      );
    } else if (secret.length < JWT_SECRET_LENGTH_MIN) {
      problems.push(`JWT_SECRET must be at least ${JWT_SECRET_LENGTH_MIN} characters in production`);
    } else if (PLACEHOLDER_SECRET.test(secret) || new Set(secret).size < 10) {
      problems.push('JWT_SECRET looks like a placeholder; use a random value (openssl rand -base64 48)');
    }
    if (new URL(config.GOOGLE_JWKS_URL).protocol !== 'https:') {
      problems.push('GOOGLE_JWKS_URL must use https in production');
    }
  }
  if ((config.ADMIN_EMAIL === undefined) !== (config.ADMIN_PASSWORD === undefined)) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (config.ADMIN_EMAIL !== undefined && !validateEmail(normaliseEmail(config.ADMIN_EMAIL)).ok) {
    problems.push('ADMIN_EMAIL must be an email address');
  }
  if (config.ADMIN_PASSWORD !== undefined) {
    const policy = checkPassword(config.ADMIN_PASSWORD);
    if (!policy.ok) problems.push(`ADMIN_PASSWORD: ${policy.message}`);
  }
  return [...problems, ...throttleProblems(config)];
}

/** A wait longer than the window would never be served: the failure behind it ages out first. */
function throttleProblems(config: AuthConfigView): string[] {
  const problems: string[] = [];
  if (config.AUTH_DELAY_MAX_SEC < config.AUTH_DELAY_BASE_SEC) {
    problems.push('AUTH_DELAY_MAX_SEC must be at least AUTH_DELAY_BASE_SEC');
  }
  if (config.AUTH_DELAY_MAX_SEC > config.AUTH_THROTTLE_WINDOW_SEC) {
    problems.push('AUTH_DELAY_MAX_SEC must be at most AUTH_THROTTLE_WINDOW_SEC');
  }
  return problems;
}
