import type * as CcxtModule from 'ccxt';

/** The ccxt module, as `import('ccxt')` resolves it. */
export type Ccxt = typeof CcxtModule;

let loading: Promise<Ccxt> | undefined;
let loaded = false;

/**
 * Loads ccxt on first use. The library holds every exchange it supports and takes a noticeable
 * share of a second and of memory to load, so a deployment that streams no exchange (the default,
 * OTC only) never pays for it. A failed load is forgotten, so the next caller tries again.
 */
export function loadCcxt(): Promise<Ccxt> {
  loading ??= import('ccxt').then(
    (module) => {
      loaded = true;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Whether ccxt has been loaded into this process through `loadCcxt`. */
export function ccxtLoaded(): boolean {
  return loaded;
}
