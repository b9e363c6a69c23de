import type { Kysely } from 'kysely';
import type { Clock, Database, KeySet, Logger, Registry } from '@updown/runtime';
import type { OrderPort } from '@updown/order';
import { loadSettlementEvidence, type DisputeLimits } from '@updown/settlement';
import { createAdminPlugin } from './admin/admin.routes';
import type { GatewayPlugin } from './app';
import { createAuthPlugin, type AuthPluginConfig } from './auth/index';
import { createIdentityPlugin } from './identity/identity.routes';
import type { PdfInspectionLimits } from '@updown/accounts';
import { createLeaderboardPlugin } from './leaderboard/leaderboard.routes';
import { createDisputesPlugin } from './receipts/disputes.routes';
import { createReceiptsPlugin } from './receipts/receipts.routes';
import type { MarketPluginOptions } from './market/market.config';
import { createMarketPlugin, type MarketTickSubscriber } from './market/market.plugin';
import { createTradesPlugin, type EvidenceLoader } from './trades/trades.routes';
import { createWalletPlugin } from './wallet/wallet.routes';

export interface GatewayFeatureDeps {
  readonly db: Kysely<Database>;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly clock: Clock;
  readonly auth: AuthPluginConfig;
  /** Where the market socket hears ticks from. */
  readonly bus: MarketTickSubscriber;
  /** The market socket's limits; `marketPluginOptions(config)` reads them from the environment. */
  readonly market?: Partial<MarketPluginOptions>;
  /** Placements: the order service in this process, or over HTTP. */
  readonly order: OrderPort;
  /** Defaults to the settlement evidence stored in `db`. */
  readonly loadEvidence?: EvidenceLoader;
  /** The public keys checkpoints and receipts are signed with (`signingKey.keySet`). */
  readonly keySet: KeySet;
  /** The PDF inspection queue's bounds; `pdfInspectionLimits(config)` reads them from the environment. */
  readonly pdfInspections?: PdfInspectionLimits;
  /** The per-trader dispute caps; `disputeLimits(config)` reads them from the environment. */
  readonly disputes?: DisputeLimits;
}

/**
 * Every feature the public API serves, in the order they register (auth first: the others use its
 * decorators). The single process, the gateway run alone and the OpenAPI document builder all take
 * their plugins from here, so a feature added once is served and documented everywhere.
 */
export function gatewayPlugins(deps: GatewayFeatureDeps): GatewayPlugin[] {
  const { db, logger, registry, clock } = deps;
  const loadEvidence: EvidenceLoader =
    deps.loadEvidence ?? ((tradeId) => loadSettlementEvidence(db, tradeId));
  return [
    createAuthPlugin({ db, config: deps.auth, logger, clock, registry }),
    createMarketPlugin({ db, bus: deps.bus, logger, registry, clock, options: deps.market }),
    createTradesPlugin({ db, order: deps.order, clock, loadEvidence }),
    createWalletPlugin({ db, clock }),
    createIdentityPlugin({ db, clock, registry, logger, pdfInspections: deps.pdfInspections }),
    createAdminPlugin({ db, clock, registry }),
    createLeaderboardPlugin({ db, clock }),
    createReceiptsPlugin({ db, keySet: deps.keySet }),
    createDisputesPlugin({ db, clock, keySet: deps.keySet, limits: deps.disputes }),
  ];
}
