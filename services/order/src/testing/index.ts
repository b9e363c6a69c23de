export { countPendingTrades, insertPendingTrades, type SeededTrade } from './trades';
export { fundedTrader } from './traders';
