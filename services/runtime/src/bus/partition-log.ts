import type { RawMessage } from './delivery';

/**
 * One partition of the in-memory bus: an append-only run of messages with consecutive offsets,
 * trimmed from the front. Trimming advances a head index and compacts the array only when more
 * than half of it is dead, so both appends and trims cost amortised O(1).
 */
export interface StoredMessage extends RawMessage {
  readonly value: string;
  /**
   * The value's validation, made by the first group it is delivered to and reused by the others:
   * `null` when it is a valid event, its problems when not, `undefined` before.
   */
  problems: readonly string[] | null | undefined;
}

export class PartitionLog {
  private entries: StoredMessage[] = [];
  private head = 0;
  private start = 0;

  constructor(
    readonly topic: string,
    readonly partition: number,
  ) {}

  get startOffset(): number {
    return this.start;
  }

  get endOffset(): number {
    return this.start + this.entries.length - this.head;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /**
   * The stored message is what every group's delivery reads (topic, partition, offset and key
   * with it), so a delivery makes no message object of its own.
   */
  append(key: string | null, value: string): number {
    const offset = this.endOffset;
    const { topic, partition } = this;
    this.entries.push({ topic, partition, offset: String(offset), key, value, problems: undefined });
    return offset;
  }

  at(offset: number): StoredMessage | undefined {
    if (offset < this.start || offset >= this.endOffset) return undefined;
    return this.entries[this.head + offset - this.start];
  }

  /** Drops every message below `offset`. */
  trimTo(offset: number): void {
    const drop = Math.min(offset, this.endOffset) - this.start;
    if (drop <= 0) return;
    this.head += drop;
    this.start += drop;
    if (this.head > 64 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  values(): string[] {
    return this.entries.slice(this.head).map((entry) => entry.value);
  }
}
