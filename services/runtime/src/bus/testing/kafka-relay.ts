import type net from 'node:net';

/**
 * Pipes one Kafka client connection to mokapi, request by request, so that some requests of all
 * connections can be made to take turns. mokapi 0.52 keeps each consumer group's committed
 * offsets in a Go map without a lock, written by OffsetCommit and read by OffsetFetch and by the
 * lag metrics it updates in a goroutine after each Produce. Two of these at the same moment kill
 * it with "fatal error: concurrent map writes" (or "read and map write"). Real brokers have no
 * such limit, so this lives here, in the test relay, and not in the adapter.
 */

const PRODUCE = 0;
/** Produce, OffsetCommit, OffsetFetch: the requests that touch a group's offset map. */
const GATED_API_KEYS = new Set([PRODUCE, 8, 9]);
/** mokapi updates its lag metrics in a goroutine started by Produce; give it time to finish. */
const PRODUCE_GRACE_MS = 5;
/** A gated request whose response never comes must not block every other connection for good. */
const GATE_HOLD_MS_MAX = 5_000;

export class RequestGate {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with a release function once every earlier holder has released. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => held);
    return previous.then(() => {
      const timer = setTimeout(release, GATE_HOLD_MS_MAX);
      return () => {
        clearTimeout(timer);
        release();
      };
    });
  }
}

/** Splits a byte stream into Kafka frames (a 4-byte big-endian size, then that many bytes). */
function framer(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const end = 4 + pending.readInt32BE(0);
      if (pending.length < end) break;
      onFrame(pending.subarray(0, end));
      pending = pending.subarray(end);
    }
  };
}

export function relayKafkaConnection(client: net.Socket, upstream: net.Socket, gate: RequestGate): void {
  const releases = new Map<number, () => void>();
  const graces = new Set<number>();
  const releaseAll = () => {
    for (const release of releases.values()) release();
    releases.clear();
  };
  // Responses start with the correlation id of their request.
  upstream.on(
    'data',
    framer((frame) => {
      client.write(frame);
      if (frame.length < 8) return;
      const correlationId = frame.readInt32BE(4);
      const release = releases.get(correlationId);
      releases.delete(correlationId);
      if (release && graces.delete(correlationId)) setTimeout(release, PRODUCE_GRACE_MS);
      else release?.();
    }),
  );
  // Requests: size, api key (int16), api version (int16), correlation id (int32), ... They are
  // forwarded strictly in order; a gated one waits for its turn and holds back those behind it.
  let sending = Promise.resolve();
  client.on(
    'data',
    framer((frame) => {
      const apiKey = frame.length >= 12 ? frame.readInt16BE(4) : -1;
      const correlationId = frame.length >= 12 ? frame.readInt32BE(8) : -1;
      sending = sending.then(async () => {
        if (GATED_API_KEYS.has(apiKey)) {
          const release = await gate.acquire();
          if (upstream.destroyed) return release();
          releases.set(correlationId, release);
          if (apiKey === PRODUCE) graces.add(correlationId);
        }
        if (!upstream.destroyed) upstream.write(frame);
      });
    }),
  );
  client.on('close', () => {
    upstream.destroy();
    releaseAll();
  });
  upstream.on('close', () => {
    client.destroy();
    releaseAll();
  });
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
}
