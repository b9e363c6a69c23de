import { Counter, Registry } from '@updown/runtime';

/**
 * What operators watch of account security: refresh tokens presented again, by what became of
 * them (`reissued` within the grace to the same client, `revoked_other_client` within the grace
 * from another client, `revoked_spent` after the grace or once the successor was used), and
 * step-up checks by outcome. Created once per registry (prom-client refuses a second of a name).
 */
export interface SecurityMetrics {
  readonly refreshReuse: Counter<'outcome'>;
  readonly stepUps: Counter<'outcome'>;
}

const shared = new WeakMap<Registry, SecurityMetrics>();

export function securityMetrics(registry: Registry = new Registry()): SecurityMetrics {
  const existing = shared.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: SecurityMetrics = {
    refreshReuse: new Counter({
      name: 'updown_refresh_token_reuse_total',
      help: 'Spent refresh tokens presented again, by outcome (reissued, revoked_other_client, revoked_spent)',
      labelNames: ['outcome'],
      registers,
    }),
    stepUps: new Counter({
      name: 'updown_step_up_total',
      help: 'Password (and code) checks before a sensitive action, by outcome (passed, refused, required)',
      labelNames: ['outcome'],
      registers,
    }),
  };
  shared.set(registry, metrics);
  return metrics;
}
