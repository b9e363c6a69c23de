/**
 * The pending trades settlement knows of, per pair, ordered by expiry: a min-heap per pair, so the
 * next expiry of a pair is O(1), adding is O(log n) whatever order trades arrive in (a one-hour
 * trade opened before a one-minute one), and dropping everything due is O(k log n).
 *
 * It is a trigger, not the truth: the database decides which trades are pending and due. Entries
 * can therefore be dropped freely (a trade settled elsewhere, a full schedule); what the schedule
 * misses is found by the periodic sweep of overdue pending trades.
 */

interface Entry {
  readonly tradeId: string;
  readonly expiryAtMs: number;
}

export class ExpirySchedule {
  private readonly heaps = new Map<string, Entry[]>();
  private readonly known = new Set<string>();

  /** `capacity` bounds memory: beyond it `add` refuses, and the sweep picks those trades up. */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
  }

  get size(): number {
    return this.known.size;
  }

  has(tradeId: string): boolean {
    return this.known.has(tradeId);
  }

  /** False when the trade is already scheduled (a redelivered event) or the schedule is full. */
  add(tradeId: string, pair: string, expiryAtMs: number): boolean {
    if (this.known.has(tradeId) || this.known.size >= this.capacity) return false;
    this.known.add(tradeId);
    let heap = this.heaps.get(pair);
    if (!heap) {
      heap = [];
      this.heaps.set(pair, heap);
    }
    heap.push({ tradeId, expiryAtMs });
    siftUp(heap, heap.length - 1);
    return true;
  }

  pairs(): string[] {
    return [...this.heaps.keys()];
  }

  /** The pair's earliest expiry, if it has any trade scheduled. */
  earliest(pair: string): number | undefined {
    return this.heaps.get(pair)?.[0]?.expiryAtMs;
  }

  earliestOverall(): number | undefined {
    let min: number | undefined;
    for (const heap of this.heaps.values()) {
      const first = heap[0]?.expiryAtMs;
      if (first !== undefined && (min === undefined || first < min)) min = first;
    }
    return min;
  }

  /** Drops the pair's trades expiring before `bound`; returns how many. */
  removeBefore(pair: string, bound: number): number {
    const heap = this.heaps.get(pair);
    if (!heap) return 0;
    let removed = 0;
    while (heap.length > 0 && heap[0]!.expiryAtMs < bound) {
      const top = popMin(heap);
      this.known.delete(top.tradeId);
      removed++;
    }
    if (heap.length === 0) this.heaps.delete(pair);
    return removed;
  }
}

function less(a: Entry, b: Entry): boolean {
  return a.expiryAtMs < b.expiryAtMs || (a.expiryAtMs === b.expiryAtMs && a.tradeId < b.tradeId);
}

function siftUp(heap: Entry[], index: number): void {
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!less(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function popMin(heap: Entry[]): Entry {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length === 0) return top;
  heap[0] = last;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let smallest = i;
    if (left < heap.length && less(heap[left]!, heap[smallest]!)) smallest = left;
    if (right < heap.length && less(heap[right]!, heap[smallest]!)) smallest = right;
    if (smallest === i) return top;
    [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
    i = smallest;
  }
}
