import { Type, type Static } from '@sinclair/typebox';

/** `/healthz`: the process is up and serving HTTP. */
export const HealthResponse = Type.Object({ status: Type.Literal('ok') }, { title: 'HealthResponse' });
export type HealthResponse = Static<typeof HealthResponse>;

/** One entry per dependency: `true` when healthy, otherwise a short reason such as `'timeout'`. */
export const ReadinessChecks = Type.Record(Type.String(), Type.Union([Type.Boolean(), Type.String()]), {
  title: 'ReadinessChecks',
});
export type ReadinessChecks = Static<typeof ReadinessChecks>;

/** `/readyz` when every dependency is usable. */
export const ReadinessResponse = Type.Object(
  { status: Type.Literal('ok'), checks: ReadinessChecks },
  { title: 'ReadinessResponse' },
);
export type ReadinessResponse = Static<typeof ReadinessResponse>;

/** `/readyz` with status 503: the error body plus the checks, so an operator sees what failed. */
export const NotReadyResponse = Type.Object(
  {
    detail: Type.String(),
    code: Type.Literal('NOT_READY'),
    checks: ReadinessChecks,
  },
  { title: 'NotReadyResponse' },
);
export type NotReadyResponse = Static<typeof NotReadyResponse>;
