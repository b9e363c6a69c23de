import type { Receipt, ReceiptDocument, ReceiptTick } from '../api/get-receipt';
import { formatClockMs } from './receipt-format';

/**
 * What the receipt's chart draws, from the proof's ticks.
 *
 * Ticks are often milliseconds apart, and the chart's time axis takes at most one point per
 * second: bucketing by second would hide ticks and could put the entry and the exit in the same
 * bucket as their neighbours. So the axis is tick order, not time: every tick gets its own slot
 * (1, 2, 3, … passed to the chart as its "time") and the axis and crosshair show each slot's real
 * time to the millisecond from `labels`. The expiry instant, which falls between the exit tick
 * and the first tick after it, gets a slot of its own there. Where the chain is not continuous
 * (between the ticks around entry and those around expiry) an empty slot separates two runs, each
 * drawn as a line of its own, so two ticks a minute apart are never joined as if adjacent.
 */

/** Ticks within this distance of the entry tick or of the expiry are shown. */
export const CHART_WINDOW_MS = 5000;
/** At most this many ticks on each side of the chart, the nearest ones kept. */
export const CHART_TICKS_PER_SIDE_MAX = 40;

export interface ChartTickPoint {
  time: number;
  value: number;
}

export interface ReceiptChartData {
  /** Continuous stretches of the chain, in order, each drawn as a line of its own. */
  runs: ChartTickPoint[][];
  /** The empty slots between runs, labelled '…'. */
  gapTimes: number[];
  /** The slot of the expiry instant; null when the receipt has no ticks to place it among. */
  expiryTime: number | null;
  /** The real time of every slot, for the axis and the crosshair. */
  labels: Map<number, string>;
  /** Slots of the entry and exit ticks, when they are on the chart. */
  entryTime: number | null;
  exitTime: number | null;
}

function allTicks(document: ReceiptDocument): ReceiptTick[] {
  const { receipt, proof } = document;
  const bySeq = new Map<number, ReceiptTick>();
  for (const tick of [
    ...(proof.entry?.segment ?? []),
    ...(proof.exit?.segment ?? []),
    receipt.entryTick,
    receipt.exitTick,
    receipt.afterExpiryTick,
  ]) {
    if (tick) bySeq.set(tick.seq, tick);
  }
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** The ticks within the window of `anchorMs`, the nearest `CHART_TICKS_PER_SIDE_MAX`, plus `required`. */
function near(ticks: readonly ReceiptTick[], anchorMs: number, required: readonly (ReceiptTick | null)[]) {
  const seqs = new Set(required.filter((tick) => tick !== null).map((tick) => tick.seq));
  const nearest = ticks
    .filter((tick) => Math.abs(tick.atMs - anchorMs) <= CHART_WINDOW_MS && !seqs.has(tick.seq))
    .sort((a, b) => Math.abs(a.atMs - anchorMs) - Math.abs(b.atMs - anchorMs))
    .slice(0, Math.max(0, CHART_TICKS_PER_SIDE_MAX - seqs.size));
  for (const tick of nearest) seqs.add(tick.seq);
  return seqs;
}

export function receiptChartData(document: ReceiptDocument): ReceiptChartData {
  const receipt: Receipt = document.receipt;
  const ticks = allTicks(document);
  const shown = new Set([
    ...near(ticks, receipt.entryTick?.atMs ?? receipt.acceptedAtMs, [receipt.entryTick]),
    ...near(ticks, receipt.expiryAtMs, [receipt.exitTick, receipt.afterExpiryTick]),
  ]);

  const data: ReceiptChartData = {
    runs: [],
    gapTimes: [],
    expiryTime: null,
    labels: new Map(),
    entryTime: null,
    exitTime: null,
  };
  let slot = 0;
  let previous: ReceiptTick | null = null;
  const placeExpiry = () => {
    slot += 1;
    data.expiryTime = slot;
    data.labels.set(slot, `expiry ${formatClockMs(receipt.expiryAtMs)}`);
  };
  for (const tick of ticks) {
    if (!shown.has(tick.seq)) continue;
    if (previous !== null && tick.seq !== previous.seq + 1) {
      slot += 1;
      data.gapTimes.push(slot);
      data.labels.set(slot, '…');
    }
    if (previous === null || tick.seq !== previous.seq + 1) data.runs.push([]);
    if (data.expiryTime === null && tick.atMs > receipt.expiryAtMs) placeExpiry();
    slot += 1;
    data.runs.at(-1)!.push({ time: slot, value: Number(tick.price) });
    data.labels.set(slot, formatClockMs(tick.atMs));
    if (tick.seq === receipt.entryTick?.seq) data.entryTime = slot;
    if (tick.seq === receipt.exitTick?.seq) data.exitTime = slot;
    previous = tick;
  }
  if (data.expiryTime === null && previous !== null) placeExpiry();
  return data;
}

/** Decimals to show prices with: as many as the longest price on the chart has, at most 8. */
export function chartPriceDecimals(document: ReceiptDocument): number {
  const decimals = allTicks(document).map((tick) => tick.price.split('.')[1]?.length ?? 0);
  return Math.min(8, Math.max(0, ...decimals));
}
