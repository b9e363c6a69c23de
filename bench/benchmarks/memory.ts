import type { Benchmark } from '../lib/types';

export const memory: Benchmark = {
  name: 'memory',
  inDefaultRun: true,
  run: () => Promise.reject(new Error('memory: being written')),
};

export const soak: Benchmark = {
  name: 'soak',
  inDefaultRun: false,
  run: () => Promise.reject(new Error('soak: being written')),
};
