import type { Benchmark } from '../lib/types';
import { expiryStorm } from './expiry-storm';
import { fanOut } from './fan-out';
import { ledger } from './ledger';
import { memory, soak } from './memory';
import { placement, placementDistributed } from './placement';

/** In the order `npm run bench` runs them: the heaviest database work last, so it disturbs nothing. */
export const benchmarks: readonly Benchmark[] = [
  memory,
  ledger,
  placement,
  placementDistributed,
  fanOut,
  expiryStorm,
  soak,
];
