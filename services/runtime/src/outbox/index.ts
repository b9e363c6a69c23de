export { coalescedKick, RELAY_WAKE } from './coalesced-kick';
export { derivedEventId } from './derived-event-id';
export { ENQUEUE_EVENTS_MAX, enqueueEvent, enqueueEvents, type OutboxEvent } from './enqueue-event';
export {
  OUTBOX_RELAY_DEFAULTS,
  OutboxPublishFailed,
  OutboxRelay,
  type OutboxRelayDeps,
  type OutboxRelayOptions,
  type RelayPass,
} from './outbox-relay';
export { OUTBOX_RELAY_LOCK_ID } from './outbox.repository';
export {
  committedAfter,
  moveCursor,
  readCursor,
  type OutboxSource,
  type OutboxSourcePosition,
  type OutboxSourceRow,
} from './outbox-source';
