import { Counter, Gauge, type Registry } from '@updown/runtime';

/**
 * WebSocket price feed series, created once per registry and shared (prom-client refuses a second
 * metric of one name, and several apps may share the single process's registry). The `pair`
 * label only takes symbols that exist in the pair list: unknown pairs are refused before counting.
 */
export interface MarketWsMetrics {
  readonly clients: Gauge<'pair'>;
  readonly dropped: Counter<'pair'>;
  readonly terminated: Counter;
  readonly refused: Counter<'reason'>;
  readonly sent: Counter<'pair'>;
  /** Adds a source of server-side buffered bytes, read at scrape time; returns its removal. */
  addBufferedSource(source: () => number): () => void;
}

const shared = new WeakMap<Registry, MarketWsMetrics>();

export function marketWsMetrics(registry: Registry): MarketWsMetrics {
  const existing = shared.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const bufferedSources = new Set<() => number>();
  new Gauge({
    name: 'updown_ws_buffered_bytes',
    help: 'Bytes queued in the server for WebSocket price clients, not yet taken by the network',
    registers,
    collect() {
      let total = 0;
      for (const source of bufferedSources) total += source();
      this.set(total);
    },
  });
  const metrics: MarketWsMetrics = {
    clients: new Gauge({
      name: 'updown_ws_clients',
      help: 'Open WebSocket price connections, by pair',
      labelNames: ['pair'],
      registers,
    }),
    dropped: new Counter({
      name: 'updown_ws_messages_dropped_total',
      help: 'Ticks not sent to a WebSocket client because its send buffer was over the bound',
      labelNames: ['pair'],
      registers,
    }),
    terminated: new Counter({
      name: 'updown_ws_slow_clients_terminated_total',
      help: 'WebSocket clients disconnected for staying over the send-buffer bound, or for not answering pings',
      registers,
    }),
    refused: new Counter({
      name: 'updown_ws_connections_refused_total',
      help: 'WebSocket price connections closed at once, by reason (invalid_pair, unknown_pair, capacity, address_limit)',
      labelNames: ['reason'],
      registers,
    }),
    sent: new Counter({
      name: 'updown_ws_messages_sent_total',
      help: 'Tick messages handed to WebSocket clients',
      labelNames: ['pair'],
      registers,
    }),
    addBufferedSource(source) {
      bufferedSources.add(source);
      return () => bufferedSources.delete(source);
    },
  };
  shared.set(registry, metrics);
  return metrics;
}
