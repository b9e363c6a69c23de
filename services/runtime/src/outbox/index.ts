export { coalescedKick, RELAY_WAKE } from './coalesced-kick';
export { derivedEventId } from './derived-event-id';
export {
  OUTBOX_RELAY_DEFAULTS,
  OutboxPublishFailed,
  OutboxRelay,
  type OutboxRelayDeps,
  type OutboxRelayOptions,
  type RelayPass,
} from './outbox-relay';
export { OUTBOX_RELAY_LOCK_ID } from './relay-lock';
export {
  committedAfter,
  moveCursor,
  readCursor,
  type OutboxSource,
  type OutboxSourcePosition,
  type OutboxSourceRow,
} from './outbox-source';
