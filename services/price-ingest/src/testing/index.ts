export { awaitsReferenceTick, storeTicks } from './ticks';
export {
  recordTickerMessages,
  startFakeExchange,
  type FakeExchange,
  type FakeExchangeId,
} from './fake-exchanges';
