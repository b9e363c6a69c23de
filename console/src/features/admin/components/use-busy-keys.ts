import { useCallback, useRef, useState } from 'react';

/**
 * Runs at most one task per key (a row, a form) at a time. The ref refuses a second start at
 * once; the state only disables the button on the next render, which a fast double click beats.
 */
export function useBusyKeys() {
  const busyRef = useRef<Set<string>>(new Set());
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());

  const run = useCallback(async (key: string, task: () => Promise<void>): Promise<void> => {
    if (busyRef.current.has(key)) return;
    busyRef.current.add(key);
    setBusy(new Set(busyRef.current));
    try {
      await task();
    } finally {
      busyRef.current.delete(key);
      setBusy(new Set(busyRef.current));
    }
  }, []);

  const isBusy = useCallback((key: string) => busy.has(key), [busy]);

  return { run, isBusy };
}
