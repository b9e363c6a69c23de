import { useEffect, useRef, useState } from 'react';
import type { LivePriceMessage } from '@updown/schemas/api';

export const RECONNECT_DELAY_MS = 3000;
/** Close code for a missing or unknown pair: reconnecting with the same query cannot help. */
const POLICY_VIOLATION = 1008;

function socketUrl(pair: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/api/market/ws?pair=${encodeURIComponent(pair)}`;
}

/**
 * Opens `/api/market/ws?pair=X` and hands every tick to `onTick` (a ref, so a new callback does
 * not reconnect). Reconnects 3 s after a close. Returns whether the socket is open.
 */
export function useLivePrice(pair: string, onTick: (message: LivePriceMessage) => void): boolean {
  const [live, setLive] = useState(false);
  const onTickRef = useRef(onTick);
  onTickRef.current = onTick;

  useEffect(() => {
    let disposed = false;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      socket = new WebSocket(socketUrl(pair));
      socket.onopen = () => setLive(true);
      socket.onmessage = (event: MessageEvent<string>) => {
        try {
          const message = JSON.parse(event.data) as LivePriceMessage;
          if (message.pair === pair && Number.isFinite(message.price)) onTickRef.current(message);
        } catch (error) {
          console.error('Bad live price message', error);
        }
      };
      socket.onclose = (event) => {
        setLive(false);
        if (disposed || event.code === POLICY_VIOLATION) return;
        retry = setTimeout(connect, RECONNECT_DELAY_MS);
      };
    };
    connect();

    return () => {
      disposed = true;
      clearTimeout(retry);
      socket?.close();
      setLive(false);
    };
  }, [pair]);

  return live;
}
