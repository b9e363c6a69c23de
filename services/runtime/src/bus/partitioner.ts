/**
 * Maps a key to a partition with 32-bit FNV-1a: stable across processes and releases, so one key
 * always lands on one partition and its messages keep their order. (The Kafka adapter leaves this
 * to kafkajs's default murmur2 partitioner, as other Kafka clients expect.)
 */
export function partitionForKey(key: string, partitionCount: number): number {
  if (!Number.isInteger(partitionCount) || partitionCount < 1) {
    throw new RangeError(`partitionCount must be a positive integer, got ${partitionCount}`);
  }
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitionCount;
}
