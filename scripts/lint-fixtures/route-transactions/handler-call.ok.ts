// lint-as: services/gateway/src/admin/lint-fixture.routes.ts
import type { Clock } from '@updown/runtime';
import { suspendAll } from './lint-fixture.handler';

export async function suspendRoute(deps: { clock: Clock }, adminId: string): Promise<{ at: string }> {
  await suspendAll(deps, adminId);
  return { at: new Date(deps.clock.nowMs()).toISOString() };
}
