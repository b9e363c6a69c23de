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

/**
 * jsdom's `Blob` has no `arrayBuffer()`. On Node 24 and later the `Response.blob()` the console's
 * tests receive is built from the global `Blob`, which the jsdom environment replaced with jsdom's,
 * so reading the bytes failed there only (`blob.arrayBuffer is not a function`). Browsers have had
 * it for years; give jsdom's the same method through its own `FileReader`.
 */
interface JsdomBlobApi {
  Blob: { prototype: { arrayBuffer?: unknown } };
  FileReader: new () => {
    result: unknown;
    onload: (() => void) | null;
    onerror: (() => void) | null;
    error: unknown;
    readAsArrayBuffer(blob: unknown): void;
  };
}
const blobApi = (globalThis as { jsdom?: { window: JsdomBlobApi } }).jsdom?.window;
if (blobApi !== undefined && typeof blobApi.Blob.prototype.arrayBuffer !== 'function') {
  const { FileReader } = blobApi;
  blobApi.Blob.prototype.arrayBuffer = function arrayBuffer(this: unknown): Promise<ArrayBuffer> {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error);
      reader.readAsArrayBuffer(this);
    });
  };
}
