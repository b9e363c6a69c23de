import type { TopicRegistry, TopicValidators } from '@updown/schemas';
import { GROUP_NAME_LENGTH_MAX, KEY_LENGTH_MAX } from './bus';
import { InvalidEvent, InvalidSubscription, UnknownTopic } from './errors';

/** The checks every adapter runs before it accepts a publish or a subscription. */

export function checkEvent(
  registry: TopicRegistry,
  validators: TopicValidators<TopicRegistry>,
  topic: string,
  key: string,
  event: unknown,
): void {
  if (!Object.hasOwn(registry, topic)) throw new UnknownTopic(topic);
  if (typeof key !== 'string' || key === '' || key.length > KEY_LENGTH_MAX) {
    throw new InvalidEvent(topic, [`key must be a non-empty string of at most ${KEY_LENGTH_MAX} characters`]);
  }
  const problems = validators[topic]!.problems(event);
  if (problems.length > 0) throw new InvalidEvent(topic, problems);
}

export function checkSubscription(registry: TopicRegistry, topic: string, group: string): void {
  if (!Object.hasOwn(registry, topic)) throw new UnknownTopic(topic);
  if (typeof group !== 'string' || !/^[A-Za-z0-9._-]+$/.test(group) || group.length > GROUP_NAME_LENGTH_MAX) {
    throw new InvalidSubscription(
      `group must be 1 to ${GROUP_NAME_LENGTH_MAX} characters of letters, digits, ".", "_" and "-", got "${group}"`,
    );
  }
}
