// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_INDICATOR_SETTINGS, type IndicatorSettings } from '../lib/indicator-settings';
import { INDICATOR_PRESET_KEY, loadIndicatorPreset } from '../lib/preset-storage';
import { IndicatorPanel } from './indicator-panel';

const NAMES = [
  'Moving Average',
  'Exponential Moving Average',
  'Bollinger Bands',
  'Relative Strength Index',
  'MACD',
  'Parabolic SAR',
  'Average True Range',
  'Stochastic Oscillator',
  'Volume',
  'Fibonacci Retracement',
];

function renderPanel(initialSettings: IndicatorSettings = DEFAULT_INDICATOR_SETTINGS) {
  const onIndicatorChange = vi.fn();
  const onClose = vi.fn();
  const view = render(
    <IndicatorPanel
      initialSettings={initialSettings}
      onIndicatorChange={onIndicatorChange}
      onClose={onClose}
    />,
  );
  return { onIndicatorChange, onClose, ...view };
}

/** The card of `name`, looked up directly: role queries over the whole panel are slow in jsdom. */
function card(name: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`section[aria-label="${name}"]`);
  if (!found) throw new Error(`No card for ${name}`);
  return found;
}

function switchOf(name: string) {
  return within(card(name)).getByRole('switch', { name }) as HTMLInputElement;
}

function numberIn(name: string, label: string) {
  return within(card(name)).getByLabelText(label) as HTMLInputElement;
}

let alertSpy: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  localStorage.clear();
  alertSpy = vi.spyOn(window, 'alert').mockImplementation(() => {});
  vi.spyOn(console, 'info').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('IndicatorPanel', () => {
  it('shows the header with a close button', async () => {
    const { onClose } = renderPanel();
    expect(screen.getByRole('dialog', { name: 'Indicator Settings' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Indicator Settings' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('has one card with an off switch per indicator and no settings while they are off', () => {
    renderPanel();
    expect(screen.getAllByRole('region').map((region) => region.getAttribute('aria-label'))).toEqual(NAMES);
    for (const name of NAMES) expect(switchOf(name).checked).toBe(false);
    expect(screen.getAllByRole('switch')).toHaveLength(10);
    expect(screen.queryByLabelText('Period')).toBeNull();
    expect(screen.queryByLabelText('Color')).toBeNull();
    expect(screen.queryByText('0.618')).toBeNull();
  });

  it('shows the settings only while the indicator is on and tells the owner at once', async () => {
    const { onIndicatorChange } = renderPanel();
    await userEvent.click(switchOf('Moving Average'));
    expect(onIndicatorChange).toHaveBeenLastCalledWith('ma', {
      ...DEFAULT_INDICATOR_SETTINGS.ma,
      enabled: true,
    });
    const ma = within(card('Moving Average'));
    expect((ma.getByLabelText('Period') as HTMLInputElement).value).toBe('20');
    expect(ma.getByLabelText('Color')).toBeTruthy();
    expect(ma.getByLabelText('Thickness')).toBeTruthy();
    const source = ma.getByLabelText('Source') as HTMLSelectElement;
    expect([...source.options].map((option) => option.value)).toEqual([
      'close',
      'open',
      'high',
      'low',
      'hl2',
      'hlc3',
      'ohlc4',
    ]);

    await userEvent.selectOptions(source, 'hlc3');
    expect(onIndicatorChange).toHaveBeenLastCalledWith('ma', expect.objectContaining({ source: 'hlc3' }));

    await userEvent.click(switchOf('Moving Average'));
    expect(onIndicatorChange).toHaveBeenLastCalledWith('ma', expect.objectContaining({ enabled: false }));
    expect(within(card('Moving Average')).queryByLabelText('Period')).toBeNull();
  });

  it('notifies colour edits of an enabled indicator', async () => {
    const { onIndicatorChange } = renderPanel();
    await userEvent.click(switchOf('MACD'));
    fireEvent.change(within(card('MACD')).getByLabelText('Signal Color'), { target: { value: '#123456' } });
    expect(onIndicatorChange).toHaveBeenLastCalledWith(
      'macd',
      expect.objectContaining({ enabled: true, signalColor: '#123456' }),
    );
  });

  it('clamps numbers to the spec’s bounds and steps', async () => {
    const { onIndicatorChange } = renderPanel();
    await userEvent.click(switchOf('Moving Average'));
    const period = numberIn('Moving Average', 'Period');
    await userEvent.clear(period);
    await userEvent.type(period, '500');
    expect(period.value).toBe('200');
    expect(onIndicatorChange).toHaveBeenLastCalledWith('ma', expect.objectContaining({ period: 200 }));

    await userEvent.clear(period);
    await userEvent.type(period, '0');
    await userEvent.tab();
    expect(period.value).toBe('1');

    await userEvent.click(switchOf('Bollinger Bands'));
    const stdDev = numberIn('Bollinger Bands', 'Std Dev');
    expect(stdDev.step).toBe('0.1');
    fireEvent.change(stdDev, { target: { value: '7' } });
    expect(stdDev.value).toBe('5');
    fireEvent.change(stdDev, { target: { value: '2.34' } });
    fireEvent.blur(stdDev);
    expect(stdDev.value).toBe('2.3');
    const opacity = numberIn('Bollinger Bands', 'Fill Opacity');
    fireEvent.change(opacity, { target: { value: '1.5' } });
    expect(opacity.value).toBe('1');

    await userEvent.click(switchOf('Relative Strength Index'));
    const overbought = numberIn('Relative Strength Index', 'Overbought');
    await userEvent.clear(overbought);
    await userEvent.type(overbought, '40');
    await userEvent.tab();
    expect(overbought.value).toBe('50');
    expect(onIndicatorChange).toHaveBeenLastCalledWith('rsi', expect.objectContaining({ overbought: 50 }));

    await userEvent.click(switchOf('Parabolic SAR'));
    const maxStep = numberIn('Parabolic SAR', 'Max Step');
    expect([maxStep.min, maxStep.max, maxStep.step]).toEqual(['0.1', '1', '0.1']);
    fireEvent.change(maxStep, { target: { value: '0.05' } });
    fireEvent.blur(maxStep);
    expect(maxStep.value).toBe('0.1');
  });

  it('shows each indicator’s labelled settings', async () => {
    renderPanel();
    for (const name of NAMES) await userEvent.click(switchOf(name));
    const labels = (name: string) =>
      within(card(name))
        .getAllByText(
          (_, element) => element?.tagName === 'SPAN' && element.parentElement?.tagName === 'LABEL',
        )
        .map((element) => element.textContent)
        .filter((text) => text !== name);
    expect(labels('Bollinger Bands')).toEqual([
      'Length',
      'Std Dev',
      'Upper Color',
      'Lower Color',
      'Middle Color',
      'Fill Opacity',
    ]);
    expect(labels('Relative Strength Index')).toEqual([
      'Period',
      'Overbought',
      'Oversold',
      'Color',
      'Thickness',
    ]);
    expect(labels('MACD')).toEqual([
      'Fast Period',
      'Slow Period',
      'Signal Period',
      'MACD Color',
      'Signal Color',
      'Histogram Color',
    ]);
    expect(labels('Parabolic SAR')).toEqual(['Step', 'Max Step', 'Color', 'Size']);
    expect(labels('Average True Range')).toEqual(['Period', 'Color', 'Thickness']);
    expect(labels('Stochastic Oscillator')).toEqual([
      '%K Period',
      '%D Period',
      'Smoothing',
      '%K Color',
      '%D Color',
      'Overbought',
      'Oversold',
    ]);
    const volume = within(card('Volume'));
    expect(volume.getByLabelText('Up Color')).toBeTruthy();
    expect(volume.getByLabelText('Down Color')).toBeTruthy();
    expect((volume.getByLabelText('Overlay on Chart') as HTMLInputElement).type).toBe('checkbox');
    const fibonacci = within(card('Fibonacci Retracement'));
    for (const level of ['0', '0.236', '0.382', '0.5', '0.618', '0.786', '1.0']) {
      expect(fibonacci.getByText(level)).toBeTruthy();
    }
    const thickness = fibonacci.getByLabelText('Line Thickness') as HTMLInputElement;
    expect([thickness.min, thickness.max]).toEqual(['1', '5']);
  });

  it('Reset turns every indicator off, tells the owner and alerts', async () => {
    const { onIndicatorChange } = renderPanel();
    await userEvent.click(switchOf('Moving Average'));
    await userEvent.click(switchOf('Volume'));
    onIndicatorChange.mockClear();
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(alertSpy).toHaveBeenCalledWith('All indicators reset!');
    for (const name of NAMES) expect(switchOf(name).checked).toBe(false);
    expect(onIndicatorChange).toHaveBeenCalledTimes(10);
    expect(onIndicatorChange).toHaveBeenCalledWith('ma', expect.objectContaining({ enabled: false }));
    expect(onIndicatorChange).toHaveBeenCalledWith('volume', expect.objectContaining({ enabled: false }));
  });

  it('Save Preset stores the settings, alerts, and the preset comes back on the next start', async () => {
    renderPanel();
    await userEvent.click(switchOf('Moving Average'));
    const period = numberIn('Moving Average', 'Period');
    await userEvent.clear(period);
    await userEvent.type(period, '30');
    await userEvent.click(screen.getByRole('button', { name: 'Save Preset' }));
    expect(alertSpy).toHaveBeenCalledWith('Indicator preset saved!');
    expect(JSON.parse(localStorage.getItem(INDICATOR_PRESET_KEY)!).ma).toMatchObject({
      enabled: true,
      period: 30,
    });

    cleanup();
    const reloaded = loadIndicatorPreset();
    expect(reloaded?.ma).toEqual({ ...DEFAULT_INDICATOR_SETTINGS.ma, enabled: true, period: 30 });
    renderPanel(reloaded!);
    expect(switchOf('Moving Average').checked).toBe(true);
    expect(numberIn('Moving Average', 'Period').value).toBe('30');
  });

  it('Apply tells the owner about every indicator and closes', async () => {
    const { onIndicatorChange, onClose } = renderPanel();
    await userEvent.click(switchOf('Average True Range'));
    onIndicatorChange.mockClear();
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onIndicatorChange).toHaveBeenCalledTimes(10);
    expect(onIndicatorChange.mock.calls.map(([id]) => id)).toEqual([
      'ma',
      'ema',
      'bb',
      'rsi',
      'macd',
      'psar',
      'atr',
      'stochastic',
      'volume',
      'fibonacci',
    ]);
    expect(onIndicatorChange).toHaveBeenCalledWith('atr', {
      ...DEFAULT_INDICATOR_SETTINGS.atr,
      enabled: true,
    });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape', async () => {
    const { onClose } = renderPanel();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('loadIndicatorPreset', () => {
  it('is null without a preset or with an unreadable one', () => {
    expect(loadIndicatorPreset()).toBeNull();
    localStorage.setItem(INDICATOR_PRESET_KEY, '{not json');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(loadIndicatorPreset()).toBeNull();
  });

  it('keeps stored values inside the bounds and falls back on anything malformed', () => {
    localStorage.setItem(
      INDICATOR_PRESET_KEY,
      JSON.stringify({
        ma: { enabled: true, period: 999, color: 'red', thickness: 3, source: 'median' },
        bb: { enabled: 'yes', stdDev: 0.26 },
        volume: { enabled: true, overlay: false, upColor: '#ABCDEF' },
      }),
    );
    const preset = loadIndicatorPreset()!;
    expect(preset.ma).toEqual({
      enabled: true,
      period: 200,
      color: '#f59e0b',
      thickness: 3,
      source: 'close',
    });
    expect(preset.bb).toEqual({ ...DEFAULT_INDICATOR_SETTINGS.bb, stdDev: 0.3 });
    expect(preset.volume).toEqual({
      ...DEFAULT_INDICATOR_SETTINGS.volume,
      enabled: true,
      overlay: false,
      upColor: '#abcdef',
    });
    expect(preset.rsi).toEqual(DEFAULT_INDICATOR_SETTINGS.rsi);
  });
});
