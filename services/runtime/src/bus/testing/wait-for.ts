/**
 * Polls until `predicate` holds. Tests wait on conditions, never on fixed sleeps, so they are as
 * fast as the system allows and fail with a description instead of hanging.
 */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const intervalMs = options.intervalMs ?? 10;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() >= deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${options.what ?? 'a condition'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The current value of one labelled series of a counter or gauge; 0 when it was never set. */
export async function metricValue(
  registry: {
    getSingleMetric(
      name: string,
    ): { get(): Promise<{ values: { labels: object; value: number }[] }> } | undefined;
  },
  name: string,
  labels: Record<string, string | number> = {},
): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const matching = values.filter((entry) =>
    Object.entries(labels).every(([key, value]) => (entry.labels as Record<string, unknown>)[key] === value),
  );
  return matching.reduce((sum, entry) => sum + entry.value, 0);
}
