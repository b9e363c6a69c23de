/**
 * Shared schemas: event envelopes and payloads for the bus (`./events`), HTTP API bodies
 * (`./api`) and market rules (`./market`). Schemas are TypeBox objects that validate, type and
 * document in one place.
 */
export * from './events/index';
export * from './api/index';
export * from './market';
