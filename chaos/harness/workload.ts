import { workloadApi } from './api';
import type { AckedOp, Direction } from './model';
import type { Random } from './random';
import {
  cancelBonus,
  decided,
  decideWithdrawal,
  deposit,
  placeTrade,
  withdraw,
  type OpContext,
  type OpResult,
  type TraderState,
  verifyIdentity,
} from './user-ops';

/**
 * The mixed workload: several workers, each owning a few users and running their operations one
 * after another (so each user's history has one order), all through the gateway's public API.
 * Every worker draws from its own seeded stream, so `CHAOS_SEED` replays the same choices.
 */

export const PAIRS = ['BTCUSDT', 'EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'ETHUSD'] as const;
const PASSWORD = 'Chaos-trader-pass-123';

/** Real stakes stay within 20% of the smallest bonus ($10 of a $20 deposit): $1.00 to $2.00. */
const REAL_STAKE_CENTS = [100, 200] as const;
const DEMO_STAKE_CENTS = [100, 5_000] as const;

export interface WorkloadStats {
  ops: number;
  acked: number;
  refused: Map<string, number>;
  unknown: number;
  byKind: Map<string, number>;
}

export interface WorkloadOptions {
  readonly gatewayUrl: string;
  readonly adminEmail: string;
  readonly adminPassword: string;
  readonly workers: number;
  readonly usersPerWorker: number;
  readonly random: Random;
  /** Asked before every op: false ends the worker. */
  readonly keepGoing: (opsDone: number) => boolean;
}

export interface Workload {
  readonly history: AckedOp[];
  readonly stats: WorkloadStats;
  readonly userIds: string[];
  /** Resolves when every worker has stopped. */
  readonly done: Promise<void>;
}

export async function startWorkload(options: WorkloadOptions): Promise<Workload> {
  const api = workloadApi(options.gatewayUrl);
  const stats: WorkloadStats = { ops: 0, acked: 0, refused: new Map(), unknown: 0, byKind: new Map() };
  const history: AckedOp[] = [];
  const ctxBase = { api, onUnknown: () => void stats.unknown++ };
  let adminToken = '';
  const ctx: OpContext = { ...ctxBase, adminToken: () => adminToken };
  adminToken = await signIn(ctx, options.adminEmail, options.adminPassword);

  const workers: TraderState[][] = [];
  const userIds: string[] = [];
  const runId = Date.now().toString(36);
  // Registration and sign-in go one at a time: the password hash is deliberately expensive.
  for (let w = 0; w < options.workers; w++) {
    const users: TraderState[] = [];
    for (let u = 0; u < options.usersPerWorker; u++) {
      const email = `chaos.${runId}.${w}.${u}@example.com`;
      const registered = await decided(ctx, `register ${email}`, () =>
        api.send('post', '/api/auth/register', { name: `Chaos Trader ${w}-${u}`, email, password: PASSWORD }),
      );
      // A retried registration that had committed answers EMAIL_TAKEN; sign-in then finds the user.
      if (registered.kind === 'refused' && registered.code !== 'EMAIL_TAKEN') {
        throw new Error(`registering ${email}: ${registered.code} ${registered.detail}`);
      }
      const token = await signIn(ctx, email, PASSWORD);
      const me = await decided(ctx, `me ${email}`, () =>
        api.send('get', '/api/auth/me', undefined, { token }),
      );
      if (me.kind !== 'ok') throw new Error(`loading ${email}: ${me.code}`);
      await verifyIdentity(ctx, { userId: me.body.id, token }, `Chaos Trader ${w}-${u}`);
      users.push({
        userId: me.body.id,
        token,
        realFloorCents: 0,
        demoFloorCents: 1_000_000,
        bonusActive: false,
        bonusEverCredited: false,
        bonusAmountCents: 0,
        realStakesCents: 0,
        pendingWithdrawals: [],
      });
      userIds.push(me.body.id);
      history.push({ kind: 'register', userId: me.body.id });
    }
    workers.push(users);
  }

  const runWorker = async (users: TraderState[], random: Random) => {
    while (options.keepGoing(stats.ops)) {
      const user = random.pick(users);
      const [kind, result] = await nextOp(ctx, user, random);
      stats.ops++;
      stats.byKind.set(kind, (stats.byKind.get(kind) ?? 0) + 1);
      if (result.acked) {
        stats.acked++;
        history.push(result.acked);
      } else if (result.refused) {
        stats.refused.set(result.refused, (stats.refused.get(result.refused) ?? 0) + 1);
      }
    }
  };
  const done = Promise.all(workers.map((users, i) => runWorker(users, options.random.fork(100 + i)))).then(
    () => undefined,
  );
  return { history, stats, userIds, done };
}

async function signIn(ctx: OpContext, email: string, password: string): Promise<string> {
  const login = await decided(ctx, `login ${email}`, () =>
    ctx.api.send('post', '/api/auth/login', { email, password }),
  );
  if (login.kind !== 'ok') throw new Error(`signing in ${email}: ${login.code} ${login.detail}`);
  return login.body.access_token;
}

/** Picks and runs one op for `user`. The mix leans on placements, as a trading platform's does. */
async function nextOp(ctx: OpContext, user: TraderState, random: Random): Promise<[string, OpResult]> {
  const roll = random.next();
  const pair = random.pick(PAIRS);
  const direction: Direction = random.chance(0.5) ? 'UP' : 'DOWN';
  if (roll < 0.06 && user.pendingWithdrawals.length > 0) {
    const decision = random.chance(0.7) ? 'approve' : 'reject';
    return [`admin_${decision}`, await decideWithdrawal(ctx, user, decision)];
  }
  if (roll < 0.08 && user.bonusActive) return ['bonus_cancel', await cancelBonus(ctx, user)];
  if (roll < 0.14 && user.realFloorCents >= 500) {
    const amountCents = random.int(100, Math.min(user.realFloorCents, 20_000));
    return ['withdraw', await withdraw(ctx, user, amountCents)];
  }
  if (roll < 0.22 || user.realFloorCents < REAL_STAKE_CENTS[1]) {
    if (!user.bonusEverCredited && random.chance(0.5)) {
      // The first real deposit of at least $20 claims the first-deposit bonus.
      const amountCents = random.int(2_000, 100_000);
      return ['bonus_claim', await deposit(ctx, user, { account: 'real', amountCents })];
    }
    const amountCents = random.int(100, 30_000);
    return ['deposit_real', await deposit(ctx, user, { account: 'real', amountCents })];
  }
  if (roll < 0.3 || user.demoFloorCents < DEMO_STAKE_CENTS[1]) {
    const amountCents = random.int(1_000, 200_000);
    return ['deposit_demo', await deposit(ctx, user, { account: 'demo', amountCents })];
  }
  if (roll < 0.55) {
    const amountCents = random.int(REAL_STAKE_CENTS[0], REAL_STAKE_CENTS[1]);
    // Wagering must never complete (the model does not follow a conversion): well before the
    // turnover could reach 35x the bonus, the bonus is cancelled instead of staking more.
    if (user.bonusActive && user.realStakesCents + amountCents > user.bonusAmountCents * 10) {
      return ['bonus_cancel', await cancelBonus(ctx, user)];
    }
    return ['place_real', await placeTrade(ctx, user, { pair, direction, amountCents, account: 'real' })];
  }
  const amountCents = random.int(DEMO_STAKE_CENTS[0], DEMO_STAKE_CENTS[1]);
  return ['place_demo', await placeTrade(ctx, user, { pair, direction, amountCents, account: 'demo' })];
}
