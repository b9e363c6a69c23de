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
  /** Per partition, whether a pump is queued to start: appends before it starts queue no other. */
  readonly scheduled: boolean[];
  /** Per partition, what starts its pump: made once, so scheduling one makes no closure. */
  readonly startPump: (() => void)[];
}

export class MemoryMember implements Subscription {
  /** Deliveries in flight: a count, where a set of their promises cost two promises each. */
  private active = 0;
  private drained: (() => void) | undefined;
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

  /** Called before each delivery to this member; `endDelivery` after it, however it ended. */
  beginDelivery(): void {
    this.active++;
  }

  endDelivery(): void {
    if (--this.active > 0 || this.drained === undefined) return;
    const drained = this.drained;
    this.drained = undefined;
    drained();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.controller.abort();
      this.onClose(this);
      if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    })();
    return this.closing;
  }
}
