import { useCallback, useId, useMemo, useState, type RefObject } from 'react';
import type { TooltipAnchor } from './chart-trade-tooltip';

/** The tooltip is this wide (see `.chart-trade-tooltip`); it is kept inside the chart panel. */
export const TOOLTIP_WIDTH_PX = 230;
const EDGE_PX = 4;
const MARKER_GAP_PX = 10;

/** What the badges and the Active Trades rows call when the pointer or focus enters or leaves them. */
export interface TradeHoverHandlers {
  enter(id: string, element: HTMLElement): void;
  leave(id: string): void;
  /** The tooltip's element id while it describes this trade, for `aria-describedby`. */
  describedBy(id: string): string | undefined;
}

interface Hover {
  id: string;
  anchor: TooltipAnchor;
  /** Markers are reported by the chart, the rest by DOM events; each clears only its own. */
  source: 'element' | 'marker';
}

function anchorAt(x: number, top: number, bottom: number, root: DOMRect): TooltipAnchor {
  const below = (top + bottom) / 2 < root.height / 2;
  const maxX = Math.max(EDGE_PX, root.width - TOOLTIP_WIDTH_PX - EDGE_PX);
  return {
    x: Math.min(Math.max(x, EDGE_PX), maxX),
    y: below ? bottom : top,
    place: below ? 'below' : 'above',
  };
}

/**
 * Which trade the tooltip describes and where it points, in the coordinates of `rootRef` (the
 * layer, which covers the chart panel).
 */
export function useTradeHover(rootRef: RefObject<HTMLElement | null>) {
  const [hover, setHover] = useState<Hover | null>(null);
  const tooltipId = useId();

  const enter = useCallback(
    (id: string, element: HTMLElement) => {
      const root = rootRef.current;
      if (!root) return;
      const rootBox = root.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      const anchor = anchorAt(
        box.left - rootBox.left,
        box.top - rootBox.top,
        box.bottom - rootBox.top,
        rootBox,
      );
      setHover({ id, anchor, source: 'element' });
    },
    [rootRef],
  );

  const leave = useCallback((id: string) => {
    setHover((current) => (current?.source === 'element' && current.id === id ? null : current));
  }, []);

  // The chart reports marker hovers in pane coordinates; `paneOffset` is where the pane starts.
  const hoverMarker = useCallback(
    (
      id: string | null,
      point: { x: number; y: number } | null,
      paneOffset: { left: number; top: number },
    ) => {
      const root = rootRef.current;
      setHover((current) => {
        if (id === null || point === null || !root) return current?.source === 'marker' ? null : current;
        // Keep the first position while the pointer stays on the same marker.
        if (current?.source === 'marker' && current.id === id) return current;
        if (current?.source === 'element') return current;
        const x = paneOffset.left + point.x;
        const y = paneOffset.top + point.y;
        const anchor = anchorAt(
          x + MARKER_GAP_PX,
          y - MARKER_GAP_PX,
          y + MARKER_GAP_PX,
          root.getBoundingClientRect(),
        );
        return { id, anchor, source: 'marker' };
      });
    },
    [rootRef],
  );

  const clear = useCallback(() => setHover(null), []);

  const handlers = useMemo<TradeHoverHandlers>(
    () => ({
      enter,
      leave,
      describedBy: (id) => (hover?.id === id ? tooltipId : undefined),
    }),
    [enter, leave, hover?.id, tooltipId],
  );

  return { hover, tooltipId, handlers, hoverMarker, clear };
}
