/**
 * Typed bus errors. Publish-side errors are what a producer handles (an outbox relay backs off and
 * retries on `BusUnavailable`, but an `InvalidEvent` is a programming error to fix).
 */
export abstract class BusError extends Error {
  abstract readonly code: string;
  /** Whether retrying the same call later can succeed. */
  abstract readonly retriable: boolean;
}

export class InvalidEvent extends BusError {
  readonly code = 'BUS_INVALID_EVENT';
  readonly retriable = false;
  constructor(
    readonly topic: string,
    readonly problems: readonly string[],
  ) {
    super(`Refusing to publish an invalid event to ${topic}: ${problems.join('; ')}`);
    this.name = 'InvalidEvent';
  }
}

export class UnknownTopic extends BusError {
  readonly code = 'BUS_UNKNOWN_TOPIC';
  readonly retriable = false;
  constructor(readonly topic: string) {
    super(`Topic "${topic}" is not in the bus's topic registry`);
    this.name = 'UnknownTopic';
  }
}

export class InvalidSubscription extends BusError {
  readonly code = 'BUS_INVALID_SUBSCRIPTION';
  readonly retriable = false;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSubscription';
  }
}

export class BusClosed extends BusError {
  readonly code = 'BUS_CLOSED';
  readonly retriable = false;
  constructor() {
    super('The bus is closed');
    this.name = 'BusClosed';
  }
}

/** The in-memory bus refuses a message rather than drop one a consumer group has not read yet. */
export class BusCapacityExceeded extends BusError {
  readonly code = 'BUS_CAPACITY_EXCEEDED';
  readonly retriable = true;
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly retainedMax: number,
  ) {
    super(
      `Partition ${partition} of ${topic} holds ${retainedMax} messages not yet consumed by every group; ` +
        'refusing more until consumers catch up',
    );
    this.name = 'BusCapacityExceeded';
  }
}

/** The broker could not take the message (connection lost, timeout, broker error). */
export class BusUnavailable extends BusError {
  readonly code = 'BUS_UNAVAILABLE';
  readonly retriable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BusUnavailable';
  }
}
