export { countPendingTrades, insertPendingTrades, type SeededTrade } from './trades';
