import type { Benchmark } from '../lib/types';

export const placement: Benchmark = {
  name: 'placement',
  inDefaultRun: true,
  run: () => Promise.reject(new Error('placement: being written')),
};
