/**
 * Runs before every test file. Node 25 and later define `localStorage` and `sessionStorage` on the
 * global object as accessors that read `undefined` unless Node was started with
 * `--localstorage-file`. Vitest's jsdom environment copies a window property to the global only
 * when the global lacks it, so on those Nodes the console's tests met Node's empty accessor
 * instead of jsdom's working Storage (`Cannot read properties of undefined (reading 'getItem')`).
 * Point both names back at jsdom's window; outside the jsdom environment this does nothing.
 */
type Storages = Record<'localStorage' | 'sessionStorage', unknown>;
const dom = (globalThis as { jsdom?: { window: Storages } }).jsdom;
if (dom !== undefined) {
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      enumerable: true,
      get: () => dom.window[name],
    });
  }
}
