export { storeTicks } from './ticks';
