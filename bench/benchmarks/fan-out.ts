import type { Benchmark } from '../lib/types';

export const fanOut: Benchmark = {
  name: 'fan-out',
  inDefaultRun: true,
  run: () => Promise.reject(new Error('fan-out: being written')),
};
