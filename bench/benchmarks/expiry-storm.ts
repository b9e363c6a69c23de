import type { Benchmark } from '../lib/types';

export const expiryStorm: Benchmark = {
  name: 'expiry-storm',
  inDefaultRun: true,
  run: () => Promise.reject(new Error('expiry-storm: being written')),
};
