import {
  disputeLimits,
  gatewayPlugins,
  marketPluginOptions,
  pdfInspectionLimits,
  startGateway,
  type AuthPluginConfig,
  type GatewayFeatureDeps,
  type GatewayServerDeps,
  type RunningGateway,
} from '@updown/gateway';
import { allMigrations } from './migrations';

/** What both roots read from the environment for the gateway: its own, auth's and its features' limits. */
export type ServedGatewayConfig = GatewayServerDeps['config'] &
  AuthPluginConfig &
  Parameters<typeof marketPluginOptions>[0] &
  Parameters<typeof pdfInspectionLimits>[0] &
  Parameters<typeof disputeLimits>[0];

/**
 * Serves the gateway with every feature, as `npm start` and the gateway run alone both do: the
 * features' limits from the environment, `/readyz` waiting for every package's migrations. The
 * roots differ only in where placements go (`order`: in process, or the order service over HTTP)
 * and where the market socket hears ticks (`bus`).
 */
export function serveGateway(
  deps: Pick<GatewayFeatureDeps, 'db' | 'logger' | 'registry' | 'clock' | 'bus' | 'order' | 'keySet'> & {
    readonly config: ServedGatewayConfig;
  },
): Promise<RunningGateway> {
  const { config, db, logger, registry } = deps;
  return startGateway({
    config,
    logger,
    registry,
    db,
    readiness: { migrations: allMigrations },
    plugins: gatewayPlugins({
      db,
      logger,
      registry,
      clock: deps.clock,
      auth: config,
      bus: deps.bus,
      market: marketPluginOptions(config),
      pdfInspections: pdfInspectionLimits(config),
      disputes: disputeLimits(config),
      order: deps.order,
      keySet: deps.keySet,
    }),
  });
}
