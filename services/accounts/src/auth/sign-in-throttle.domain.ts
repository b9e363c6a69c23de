/**
 * The rules that slow down password and code guessing (README "Rate limits"), as pure functions.
 * Failures are counted per account and client address, per address across accounts, and per
 * account across addresses, all within one sliding window. Time comes in as an argument; nothing
 * here touches the database or the clock.
 *
 * Why not a lock per account: a lock that anyone can trigger by knowing an email locks the owner
 * out too. Here the attacker's own address is slowed down; the owner on another address is not.
 */

export interface ThrottlePolicy {
  /** Failures of one account from one address that cost no wait. */
  readonly freeFailures: number;
  /** The wait after the first failure past the free ones; it doubles with each further failure. */
  readonly delayBaseMs: number;
  readonly delayMsMax: number;
  /** Failures from one address, across all accounts, at which that address is refused. */
  readonly addressFailuresMax: number;
  /** Failures of one account, across all addresses, at which unknown addresses need the extra step. */
  readonly accountFailuresMax: number;
  /** How long a failure counts, for every rule. */
  readonly windowMs: number;
}

/** What the store knows about an attempt's account and address, within the window. */
export interface ThrottleState {
  /** This account's failures from this address. */
  readonly pairFailures: number;
  /** When the latest of them happened (epoch ms); null when there is none. */
  readonly pairLastFailureAt: number | null;
  /**
   * The `addressFailuresMax`-th newest failure from this address (epoch ms), or null while it has
   * fewer: see `ceilingClearsAt` for why that one failure is all the ceiling needs.
   */
  readonly addressCeilingFailureAt: number | null;
  /** The same for the account and `accountFailuresMax`. */
  readonly accountCeilingFailureAt: number | null;
}

export type AccountCeilingRule = 'extra_step' | 'refuse' | 'none';

export interface AttemptFacts {
  readonly state: ThrottleState;
  /**
   * What the per-account ceiling does to an address the account never signed in from: a password
   * sign-in is asked for the extra step (the authenticator code with the password); a two-factor
   * code, which is itself that step, is refused until the account's count relaxes, so an attacker
   * who has the password cannot spread code guesses over many addresses. A signed-in user's
   * password change gets the delay and the address ceiling only (`none`).
   */
  readonly accountCeiling: AccountCeilingRule;
  /** The account has completed a sign-in from this address before. */
  readonly knownAddress: boolean;
  /** The request carries an authenticator code along with the password. */
  readonly codeSent: boolean;
}

export type ThrottleDecision =
  | { readonly action: 'check' }
  /**
   * Refused without a check: `pair` is the delay of this account on this address, `address` the
   * address's ceiling, `account` the account's ceiling on codes from an unknown address.
   */
  | { readonly action: 'refuse'; readonly scope: 'pair' | 'address' | 'account'; readonly untilMs: number }
  /** Refused without a check until the request carries a code, or `untilMs`. */
  | { readonly action: 'extra_step'; readonly untilMs: number };

/** The doublings past which any realistic cap is reached: keeps `2 ** n` far from overflow. */
const DOUBLINGS_MAX = 40;

/**
 * The wait before the next attempt after `failures` failures of one account from one address:
 * nothing for the first `freeFailures` (typing mistakes), then base, 2·base, 4·base, … up to the
 * cap. With the defaults (3 free, 1 s, 15 min) that is 1 s after the 4th, 2 s after the 5th, and
 * 15 minutes from the 14th on.
 */
export function failureDelayMs(failures: number, policy: ThrottlePolicy): number {
  const past = failures - policy.freeFailures;
  if (past <= 0) return 0;
  const doublings = Math.min(past - 1, DOUBLINGS_MAX);
  return Math.min(policy.delayMsMax, policy.delayBaseMs * 2 ** doublings);
}

/** When this account may next be tried from this address (epoch ms); null if at once. */
export function delayedUntil(state: ThrottleState, policy: ThrottlePolicy): number | null {
  const delay = failureDelayMs(state.pairFailures, policy);
  if (delay === 0 || state.pairLastFailureAt === null) return null;
  return state.pairLastFailureAt + delay;
}

/**
 * When a ceiling of `max` failures per window stops holding, given the `max`-th newest failure
 * in the window (null when there are fewer). With c ≥ max failures in the window, the count drops
 * below max once the c − max + 1 oldest have aged out, and the last of those is the `max`-th
 * newest; so the store reads one row however many failures there are.
 */
export function ceilingClearsAt(ceilingFailureAt: number | null, windowMs: number): number | null {
  return ceilingFailureAt === null ? null : ceilingFailureAt + windowMs;
}

function laterThanNow(untilMs: number | null, now: number): untilMs is number {
  return untilMs !== null && untilMs > now;
}

/**
 * Whether an attempt may be checked. A refused attempt is not checked (so the right password is
 * refused too, and a 429 tells nothing about it) and not recorded (so hammering does not extend
 * the wait). The delay and the address ceiling refuse outright, with the later of their ends. The
 * account ceiling only asks an unknown address for the extra step: the owner on an address they
 * signed in from before, or with their authenticator, still gets in.
 */
export function decideAttempt(facts: AttemptFacts, now: number, policy: ThrottlePolicy): ThrottleDecision {
  const pairUntil = delayedUntil(facts.state, policy);
  const addressUntil = ceilingClearsAt(facts.state.addressCeilingFailureAt, policy.windowMs);
  const pairBlocks = laterThanNow(pairUntil, now);
  const addressBlocks = laterThanNow(addressUntil, now);
  if (addressBlocks && (!pairBlocks || addressUntil >= pairUntil)) {
    return { action: 'refuse', scope: 'address', untilMs: addressUntil };
  }
  if (pairBlocks) return { action: 'refuse', scope: 'pair', untilMs: pairUntil };
  const rule = facts.accountCeiling;
  if (rule !== 'none' && !facts.knownAddress && !(rule === 'extra_step' && facts.codeSent)) {
    const accountUntil = ceilingClearsAt(facts.state.accountCeilingFailureAt, policy.windowMs);
    if (laterThanNow(accountUntil, now)) {
      return rule === 'extra_step'
        ? { action: 'extra_step', untilMs: accountUntil }
        : { action: 'refuse', scope: 'account', untilMs: accountUntil };
    }
  }
  return { action: 'check' };
}

/** The `Retry-After` of a wait that ends at `untilMs`: whole seconds, rounded up, at least 1. */
export function retryAfterSec(untilMs: number, now: number): number {
  return Math.max(1, Math.ceil((untilMs - now) / 1000));
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const IPV6_GROUPS = 8;
/** The groups of a /64 prefix: 64 bits in 16-bit groups. */
const PREFIX_GROUPS = 4;

function ipv4Octets(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  if (!match) return undefined;
  const octets = match.slice(1).map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function hexGroups(parts: readonly string[]): number[] | undefined {
  const groups: number[] = [];
  for (const [index, part] of parts.entries()) {
    const embedded = index === parts.length - 1 ? ipv4Octets(part) : undefined;
    if (embedded) {
      groups.push(embedded[0]! * 256 + embedded[1]!, embedded[2]! * 256 + embedded[3]!);
    } else if (HEX_GROUP.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted quad), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] === '' ? [] : hexGroups(halves[0]!.split(':'));
  const tail = halves.length === 1 || halves[1] === '' ? [] : hexGroups(halves[1]!.split(':'));
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === IPV6_GROUPS ? head : undefined;
  const missing = IPV6_GROUPS - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/**
 * The key failures from a client address are counted under: an IPv4 address as it is; an IPv6
 * address by its /64 prefix, since one host is routinely given a whole /64 and could otherwise
 * take a fresh address for every guess; an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, how a
 * dual-stack socket reports IPv4 clients) as its IPv4 address. Text that is no address (which a
 * socket never reports) is kept, lower-cased, so it still has a key of its own.
 */
export function addressKey(address: string): string {
  const text = address.trim().toLowerCase().replace(/%.*$/, '');
  const v4 = ipv4Octets(text);
  if (v4) return v4.join('.');
  const groups = ipv6Groups(text);
  if (!groups) return text;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups
    .slice(0, PREFIX_GROUPS)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
