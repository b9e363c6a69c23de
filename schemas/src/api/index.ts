export { ErrorResponse } from './errors';
export { HealthResponse, NotReadyResponse, ReadinessChecks, ReadinessResponse } from './health';
export { RequestBody } from './request-body';
export {
  Candle,
  CandleList,
  CANDLES_LIMIT_DEFAULT,
  CANDLES_LIMIT_MAX,
  CandlesQuery,
  LivePriceMessage,
  MARKET_WS_CLOSE,
  MarketPair,
  MarketPairList,
  MarketTimeframe,
  PAIR_SYMBOL_LENGTH_MAX,
} from './market';
export {
  AdminUserList,
  AdminUserResponse,
  AdminUsersQuery,
  GoogleLoginRequest,
  LoginRequest,
  LoginResponse,
  RefreshTokenQuery,
  RegisterRequest,
  StatusOkResponse,
  TokenPairResponse,
  TwoFactorCodeRequest,
  TwoFactorSetupResponse,
  UserResponse,
  UserRole,
} from './auth';
export {
  ActiveTrade,
  ActiveTradeList,
  IdempotencyHeaders,
  PlaceTradeBody,
  Trade,
  TradeEvidence,
  TradeHistoryQuery,
  TradeIdParams,
  TradeList,
} from './trades';
export {
  AccountType,
  BonusStatus,
  PaymentRequest,
  PaymentRequestList,
  PaymentRequestStatus,
  WALLET_TRANSACTIONS_LIMIT_DEFAULT,
  WALLET_TRANSACTIONS_LIMIT_MAX,
  WalletAmountBody,
  WalletCommandResponse,
  WalletResponse,
  WalletTransaction,
  WalletTransactionList,
  WalletTransactionsQuery,
} from './wallet';
export {
  ADMIN_REQUESTS_LIMIT_DEFAULT,
  ADMIN_REQUESTS_LIMIT_MAX,
  AddPairBody,
  AdminRequestsQuery,
  AdminUserStats,
  PairSymbolParams,
  PlatformSettings,
  RequestDecisionBody,
  RequestIdParams,
  UpdatePairBody,
  UpdateSettingsBody,
} from './admin';
export { LeaderboardEntry, LeaderboardList, LeaderboardPositionParams } from './leaderboard';
