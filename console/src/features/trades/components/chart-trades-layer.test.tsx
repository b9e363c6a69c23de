// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { IChartApi, ISeriesApi, MouseEventParams, SeriesType, UTCTimestamp } from 'lightweight-charts';
import { renderWithProviders } from '../../../testing/render';
import type { ChartView } from '../../../lib/chart-view';
import type { ActiveTrade } from '../api/get-active-trades';
import type { Trade } from '../api/get-trade-history';
import { ChartTradesLayer } from './chart-trades-layer';

const markers = vi.hoisted(() => ({ setMarkers: vi.fn(), detach: vi.fn() }));
vi.mock(import('lightweight-charts'), async (importOriginal) => ({
  ...(await importOriginal()),
  createSeriesMarkers: vi.fn(() => markers) as never,
}));

/** 12:00:00 UTC; the chart's last 1m bar starts here. */
const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);
const NOW_SEC = NOW / 1000;
const BAR_PX = 10;
/** Long enough for the first poll and the first animation frame, which measures the pane. */
const FIRST_FRAME_MS = 50;

function active(id: string, overrides: Partial<ActiveTrade>): ActiveTrade {
  return {
    id,
    pair: 'BTCUSDT',
    direction: 'UP',
    amount: 10,
    entry_price: 95000,
    expiry_ts: NOW_SEC + 60,
    payout_pct: 80,
    account_type: 'demo',
    created_at: new Date(NOW - 30_000).toISOString(),
    status: 'pending',
    ...overrides,
  };
}

const SOON = active('soon', { expiry_ts: NOW_SEC + 3 });
const LATER = active('later', { direction: 'DOWN', amount: 25, expiry_ts: NOW_SEC + 90 });
const OTHER_PAIR = active('other', {
  pair: 'EURUSD',
  entry_price: 1.16,
  amount: 50,
  expiry_ts: NOW_SEC + 600,
});

const SETTLED: Trade = {
  ...active('settled', { created_at: new Date(NOW - 150_000).toISOString() }),
  status: 'lost',
  pnl: -10,
  exit_price: 94900,
  duration: 60,
  expiry_at_ms: NOW - 90_000,
  settled_at_ms: NOW - 89_900,
  void_reason: null,
  receipt_id: '5b2f1d34-7a8e-5c90-8d12-3e4f5a6b7c8d',
};
const SETTLED_OTHER_PAIR: Trade = { ...SETTLED, id: 'settled-eur', pair: 'EURUSD', entry_price: 1.16 };

function fakeView() {
  const bars = Array.from({ length: 10 }, (_, i) => {
    const time = (NOW_SEC - (9 - i) * 60) as UTCTimestamp;
    return { time, open: 95000, high: 95100, low: 94900, close: 95050, volume: 1 };
  });
  let crosshair: ((param: MouseEventParams) => void) | null = null;
  // A live chart's element is on the page.
  const chartElement = document.body.appendChild(document.createElement('div'));
  const timeScale = {
    // Like the real chart: only whole indexes have a coordinate, anything else answers 0.
    logicalToCoordinate: (logical: number) => (Number.isInteger(logical) ? logical * BAR_PX : 0),
    timeToIndex: (time: number) => {
      const index = bars.findIndex((bar) => bar.time === time);
      return index < 0 ? null : index;
    },
    width: () => 800,
    subscribeVisibleLogicalRangeChange: vi.fn(),
    unsubscribeVisibleLogicalRangeChange: vi.fn(),
    subscribeSizeChange: vi.fn(),
    unsubscribeSizeChange: vi.fn(),
  };
  const chart = {
    timeScale: () => timeScale,
    paneSize: () => ({ width: 800, height: 400 }),
    chartElement: () => chartElement,
    subscribeCrosshairMove: (handler: (param: MouseEventParams) => void) => (crosshair = handler),
    unsubscribeCrosshairMove: vi.fn(),
  };
  const series = {
    createPriceLine: vi.fn((options: { id: string; price: number }) => ({
      options: () => options,
      applyOptions: vi.fn(),
    })),
    removePriceLine: vi.fn(),
  };
  const view = {
    chart: chart as unknown as IChartApi,
    series: series as unknown as ISeriesApi<SeriesType>,
    pair: 'BTCUSDT',
    timeframe: '1m',
    bars,
    price: 95100,
  } satisfies ChartView;
  return {
    view,
    series,
    chartElement,
    hoverMarker: (param: Partial<MouseEventParams>) => crosshair?.(param as MouseEventParams),
  };
}

/**
 * Like the server, which lists a trade until its exact expiry and rounds `expiry_ts` up to whole
 * seconds: here each trade leaves the list a whole second before its `expiry_ts`.
 */
function mockApi(options: { failActive?: () => boolean } = {}) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/trades/active') {
      if (options.failActive?.()) return new Response('{"detail":"down"}', { status: 503 });
      const listed = [SOON, LATER, OTHER_PAIR].filter((trade) => trade.expiry_ts * 1000 - 1000 > Date.now());
      return new Response(JSON.stringify(listed));
    }
    if (url.startsWith('/api/trades/history'))
      return new Response(JSON.stringify([SETTLED, SETTLED_OTHER_PAIR]));
    return new Response('{}', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

function expiryLine(id: string): HTMLElement | null {
  return document.querySelector(`[data-trade-id="${id}"]`);
}

function badges(): string[] {
  const group = screen.queryByRole('group', { name: 'Trade countdowns' });
  return group
    ? within(group)
        .getAllByRole('button')
        .map((badge) => badge.textContent ?? '')
    : [];
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('ChartTradesLayer', () => {
  it('shows a badge per active trade and lines for the chart pair, polling both lists every 2 s', async () => {
    const fetchMock = mockApi();
    const { view, series } = fakeView();
    renderWithProviders(<ChartTradesLayer view={view} enabled />);
    await advance(FIRST_FRAME_MS);

    expect(badges()).toEqual(['UP$10.0000h 00m 03s', 'DOWN$25.0000h 01m 30s', 'EURUSDUP$50.0000h 10m 00s']);
    expect(screen.getByRole('region', { name: 'Active Trades' }).textContent).toContain('+1 more trades');
    // The last bar (index 9) starts now: +3 s is 0.05 of a bar to its right, +90 s is 1.5 bars.
    expect(expiryLine('soon')!.style.transform).toBe(`translateX(${Math.round(9.05 * BAR_PX)}px)`);
    expect(expiryLine('later')!.style.transform).toBe(`translateX(${9 * BAR_PX + 15}px)`);
    expect(expiryLine('other')).toBeNull();
    expect(series.createPriceLine.mock.calls.map(([options]) => [options.id, options.price])).toEqual([
      ['soon', 95000],
      ['later', 95000],
    ]);
    const lastMarkers = markers.setMarkers.mock.calls.at(-1)![0] as { id: string; text?: string }[];
    expect(lastMarkers.map((marker) => [marker.id, marker.text])).toEqual([
      ['settled', 'LOSS'],
      ['soon', undefined],
      ['later', undefined],
    ]);

    const calls = (prefix: string) => fetchMock.mock.calls.filter(([url]) => url.startsWith(prefix)).length;
    expect([calls('/api/trades/active'), calls('/api/trades/history')]).toEqual([1, 1]);
    await advance(2000);
    expect([calls('/api/trades/active'), calls('/api/trades/history')]).toEqual([2, 2]);
  });

  it('flashes an expiry line for 0.3 s at expiry and removes it 2 s later, after the trade left the list', async () => {
    mockApi();
    const { view, series } = fakeView();
    renderWithProviders(<ChartTradesLayer view={view} enabled />);
    await advance(2999);
    expect(expiryLine('soon')!.className).toContain('chart-expiry-line--live');

    await advance(1);
    expect(expiryLine('soon')!.className).toContain('chart-expiry-line--flash');
    expect(expiryLine('soon')!.className).toContain('chart-expiry-line--ended');
    expect(badges()).toHaveLength(2);
    expect(series.createPriceLine.mock.results[0]!.value.applyOptions).toHaveBeenCalledWith(
      expect.objectContaining({ color: '#ffffff', lineWidth: 2 }),
    );

    await advance(299);
    expect(expiryLine('soon')!.className).toContain('chart-expiry-line--flash');
    await advance(1);
    expect(expiryLine('soon')!.className).toContain('chart-expiry-line--expired');
    expect(expiryLine('soon')!.className).not.toContain('chart-expiry-line--flash');
    expect(expiryLine('soon')!.className).toContain('chart-expiry-line--ended');
    // The poll at 2 s, before the expiry, already left the trade out; its line stays anyway, and
    // until 2 s after the expiry.
    await advance(1600);
    expect(expiryLine('soon')).not.toBeNull();
    expect(series.removePriceLine).not.toHaveBeenCalled();

    await advance(100);
    expect(expiryLine('soon')).toBeNull();
    expect(series.removePriceLine).toHaveBeenCalledTimes(1);
    expect(expiryLine('later')!.className).toContain('chart-expiry-line--live');
  });

  it('shows the tooltip of a hovered badge with live figures from the chart price', async () => {
    mockApi();
    const { view } = fakeView();
    renderWithProviders(<ChartTradesLayer view={view} enabled />);
    await advance(FIRST_FRAME_MS);

    const badge = screen.getByRole('button', { name: /DOWN/ });
    fireEvent.mouseEnter(badge);
    const tooltip = screen.getByRole('tooltip');
    expect(badge.getAttribute('aria-describedby')).toBe(tooltip.id);
    expect(tooltip.textContent).toContain('Active');
    // DOWN at 95000 with the price at 95100: losing the stake.
    expect(tooltip.textContent).toContain('-$25.00');
    expect(tooltip.textContent).toContain('-100.00%');
    fireEvent.mouseLeave(badge);
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.mouseEnter(screen.getAllByRole('listitem')[0]!);
    expect(screen.getByRole('tooltip').textContent).toContain('+$8.00');
  });

  it('shows WIN/LOSS and the Final P/L when a settled entry marker is hovered', async () => {
    mockApi();
    const { view, hoverMarker } = fakeView();
    renderWithProviders(<ChartTradesLayer view={view} enabled />);
    await advance(FIRST_FRAME_MS);

    act(() => hoverMarker({ hoveredObjectId: 'settled', point: { x: 40, y: 60 } as never }));
    const tooltip = screen.getByRole('tooltip');
    expect(tooltip.textContent).toContain('LOSS');
    expect(tooltip.textContent).toContain('Final P/L');
    expect(tooltip.textContent).toContain('-$10.00');
    expect(tooltip.textContent).not.toContain('Current P/L');

    act(() => hoverMarker({}));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('clears its lists silently when the active trades fail to load', async () => {
    let failing = false;
    mockApi({ failActive: () => failing });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { view } = fakeView();
    renderWithProviders(<ChartTradesLayer view={view} enabled />);
    await advance(FIRST_FRAME_MS);
    expect(badges()).toHaveLength(3);

    failing = true;
    await advance(2000);
    expect(badges()).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Active Trades' })).toBeNull();
    expect(expiryLine('later')).toBeNull();
    expect(errors).not.toHaveBeenCalled();
  });

  it('removes its price lines and markers with it, but leaves a removed chart alone', async () => {
    mockApi();
    const first = fakeView();
    const { unmount } = renderWithProviders(<ChartTradesLayer view={first.view} enabled />);
    await advance(FIRST_FRAME_MS);
    unmount();
    expect(first.series.removePriceLine).toHaveBeenCalledTimes(2);
    expect(markers.detach).toHaveBeenCalledTimes(1);

    vi.clearAllMocks();
    const second = fakeView();
    const again = renderWithProviders(<ChartTradesLayer view={second.view} enabled />);
    await advance(FIRST_FRAME_MS);
    // The chart type changed: the page removed the whole chart before this layer went.
    second.chartElement.remove();
    again.unmount();
    expect(second.series.removePriceLine).not.toHaveBeenCalled();
    expect(markers.detach).not.toHaveBeenCalled();
  });

  it('asks for nothing without a session', async () => {
    const fetchMock = mockApi();
    const { view } = fakeView();
    renderWithProviders(<ChartTradesLayer view={view} enabled={false} />);
    await advance(4000);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(badges()).toEqual([]);
  });
});
