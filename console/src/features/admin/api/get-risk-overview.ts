import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';

export type RiskOverview = Schemas['RiskOverview'];
export type PairRisk = Schemas['PairRisk'];
export type DirectionExposure = Schemas['DirectionExposure'];
export type RiskTrader = Schemas['RiskTrader'];
export type TraderRiskDefaults = Schemas['TraderRiskDefaults'];

/** Exposure moves with every placement and settlement: the Risk tab is a live monitor, as Feeds is. */
export const RISK_POLL_MS = 2000;

/** Every pair's exposure, payouts, house P/L and breaker state; the trader caps; the most toxic traders. */
export function getRiskOverview(): Promise<RiskOverview> {
  return api.get('/api/admin/risk');
}

export function riskOverviewQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'risk'], queryFn: getRiskOverview });
}

/** Polled while the Risk tab is open (and the page visible). */
export function useRiskOverview() {
  return useQuery({ ...riskOverviewQueryOptions(), refetchInterval: RISK_POLL_MS });
}
