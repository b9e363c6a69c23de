import { hash } from 'node:crypto';

/**
 * The id of the one event a fact has, derived from the topic and the fact's own id instead of
 * drawn at random: a trade opens once and settles once, so every copy of its event that a
 * consumer sees (a relay retry, a bus redelivery, an event built again from its row) carries the
 * same id. Shaped as a version 8 (custom) RFC 9562 UUID.
 */
export function derivedEventId(topic: string, subjectId: string): string {
  const hex = hash('sha256', `${topic}:${subjectId}`);
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
