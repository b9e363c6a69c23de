/**
 * One read for all the collectors of a scrape: a call while a read is in flight, or in the same
 * turn of the event loop after it settled, gets that read's result, so gauges fed by one query
 * cost one query per scrape. `read` must not reject.
 */
export function readOncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= read().finally(() => setImmediate(() => (pending = undefined)));
    return pending;
  };
}
