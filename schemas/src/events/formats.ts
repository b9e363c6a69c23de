import { FormatRegistry } from '@sinclair/typebox';

/**
 * TypeBox rejects every value of a string format it has not been told about, so the formats the
 * event schemas use are registered here, once, when the module loads. A format someone else has
 * already registered is left alone: two definitions of `uuid` in one process would be a trap.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// RFC 3339 `date-time`: a full date, a time and an explicit offset (`Z` or `±hh:mm`).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

export function registerEventFormats(): void {
  if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', isUuid);
  if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', isDateTime);
}

registerEventFormats();
