export { countPendingTrades, insertPendingTrades, settledTradesReadable, type SeededTrade } from './trades';
export { fundedTrader } from './traders';
