import type { Subscription } from './bus';
import type { DeliveryDeps } from './delivery';
import type { PartitionLog } from './partition-log';

/**
 * The in-memory bus's state: a topic's partitions and groups, each group's committed offsets
 * and members, and one member (a `Subscription`) with the deliveries it has in flight.
 */

export interface MemoryTopic {
  readonly name: string;
  readonly logs: PartitionLog[];
  readonly groups: Map<string, MemoryGroup>;
}

export interface MemoryGroup {
  readonly name: string;
  readonly topic: MemoryTopic;
  /** Per partition, the next offset to deliver: the group's committed offset. */
  readonly cursors: number[];
  members: MemoryMember[];
  readonly owners: (MemoryMember | undefined)[];
  readonly pumping: boolean[];
}

export class MemoryMember implements Subscription {
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;

  constructor(
    readonly groupState: MemoryGroup,
    readonly deps: DeliveryDeps<unknown>,
    private readonly controller: AbortController,
    private readonly onClose: (member: MemoryMember) => void,
  ) {}

  get topic(): string {
    return this.groupState.topic.name;
  }

  get group(): string {
    return this.groupState.name;
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  assignment(): number[] {
    return this.groupState.owners.flatMap((owner, partition) => (owner === this ? [partition] : []));
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.controller.abort();
      this.onClose(this);
      await Promise.allSettled([...this.inFlight]);
    })();
    return this.closing;
  }
}
