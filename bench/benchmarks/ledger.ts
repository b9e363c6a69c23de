import type { Benchmark } from '../lib/types';

export const ledger: Benchmark = {
  name: 'ledger',
  inDefaultRun: true,
  run: () => Promise.reject(new Error('ledger: being written')),
};
