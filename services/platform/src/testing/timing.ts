/**
 * Time constants of the tests that run the whole platform (the browser journeys, the race
 * scenarios, the security suites), kept once so their waits and clock jumps agree.
 */

/** A tick is stored and published within a second of being due; this bounds the wait on a busy machine. */
export const TICK_WAIT_MS_MAX = 15_000;
/** How often a test looks again for a stored tick. */
export const TICK_POLL_MS = 25;
/**
 * A trade settles on the last stored tick at or before its expiry, and is void when that tick is
 * over 10 s old. So a jump over an expiry first stops this far short of it, for the feed to store
 * a tick there.
 */
export const EXIT_TICK_BEFORE_EXPIRY_MS = 2_000;
/** Where the clock lands after the expiry: the feed's next tick is after it, which makes the trade due. */
export const PAST_EXPIRY_MS = 1_000;
/** TOTP codes change every 30 s, and the server accepts each step only once per account. */
export const TOTP_STEP_MS = 30_000;
