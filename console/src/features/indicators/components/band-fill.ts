import type {
  IPrimitivePaneRenderer,
  IPrimitivePaneView,
  ISeriesPrimitive,
  PrimitivePaneViewZOrder,
  SeriesAttachedParameter,
  Time,
} from 'lightweight-charts';
import type { Point } from '../lib/indicator-math';

type Target = Parameters<IPrimitivePaneRenderer['draw']>[0];

interface Polygon {
  upper: { x: number; y: number }[];
  lower: { x: number; y: number }[];
}

class BandFillRenderer implements IPrimitivePaneRenderer {
  constructor(
    private readonly polygon: Polygon,
    private readonly color: string,
  ) {}

  draw(target: Target): void {
    const { upper, lower } = this.polygon;
    if (upper.length < 2) return;
    target.useMediaCoordinateSpace(({ context }) => {
      context.beginPath();
      upper.forEach(({ x, y }, index) => (index === 0 ? context.moveTo(x, y) : context.lineTo(x, y)));
      for (let index = lower.length - 1; index >= 0; index--)
        context.lineTo(lower[index]!.x, lower[index]!.y);
      context.closePath();
      context.fillStyle = this.color;
      context.fill();
    });
  }
}

/**
 * The shaded area between Bollinger's upper and lower bands. Lightweight Charts has no series that
 * fills between two lines, so this series primitive paints the polygon itself, under the candles,
 * in the price scale of the series it is attached to (the middle band).
 */
export class BandFill implements ISeriesPrimitive<Time> {
  private upper: readonly Point[] = [];
  private lower: readonly Point[] = [];
  private color = 'transparent';
  private attachedTo: SeriesAttachedParameter<Time> | null = null;
  private readonly views: readonly IPrimitivePaneView[] = [
    {
      zOrder: (): PrimitivePaneViewZOrder => 'bottom',
      renderer: () => new BandFillRenderer(this.polygon(), this.color),
    },
  ];

  attached(param: SeriesAttachedParameter<Time>): void {
    this.attachedTo = param;
  }

  detached(): void {
    this.attachedTo = null;
  }

  paneViews(): readonly IPrimitivePaneView[] {
    return this.views;
  }

  update(upper: readonly Point[], lower: readonly Point[], color: string): void {
    this.upper = upper;
    this.lower = lower;
    this.color = color;
    this.attachedTo?.requestUpdate();
  }

  /** Screen points of both bands at the times where both have a value on screen. */
  private polygon(): Polygon {
    const polygon: Polygon = { upper: [], lower: [] };
    if (!this.attachedTo) return polygon;
    const { chart, series } = this.attachedTo;
    const timeScale = chart.timeScale();
    this.upper.forEach((top, index) => {
      const bottom = this.lower[index];
      const x = timeScale.timeToCoordinate(top.time);
      const yTop = series.priceToCoordinate(top.value);
      const yBottom = bottom ? series.priceToCoordinate(bottom.value) : null;
      if (x === null || yTop === null || yBottom === null) return;
      polygon.upper.push({ x, y: yTop });
      polygon.lower.push({ x, y: yBottom });
    });
    return polygon;
  }
}
