import { useState } from 'react';
import type { DirectionExposure, PairRisk } from '../api/get-risk-overview';
import { formatDateTime, pnlClass } from './admin-format';
import { PairRiskEditor } from './pair-risk-editor';
import {
  exposureLevel,
  formatBreaker,
  formatExposure,
  formatOpen,
  formatSignedRiskDollars,
} from './risk-format';

export const PAIR_RISK_COLUMNS = ['Pair', 'UP', 'DOWN', 'House P/L', 'Real Trading', 'Actions'] as const;

/** One side's exposure against its cap with a bar, then its payout and open trades. */
function ExposureCell({ direction, side }: { direction: 'UP' | 'DOWN'; side: DirectionExposure }) {
  const used = side.used_pct;
  return (
    <td>
      <div className="risk-exposure">
        <span className="admin-table__strong">{formatExposure(side)}</span>
        {side.cap !== null && used !== null && (
          <div
            className="risk-meter"
            role="meter"
            aria-label={`${direction} exposure used`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.min(used, 100)}
          >
            <div
              className={`risk-meter__fill risk-meter__fill--${exposureLevel(used)}`}
              style={{ width: `${Math.min(Math.max(used, 0), 100)}%` }}
            />
          </div>
        )}
        <span className="muted small">{`Payout ${side.payout_pct}% · ${formatOpen(side)}`}</span>
      </div>
    </td>
  );
}

function StatusCell({ pair }: { pair: PairRisk }) {
  if (!pair.suspended) {
    return (
      <td>
        <span className="badge badge--up">Open</span>
      </td>
    );
  }
  return (
    <td>
      <div className="risk-exposure">
        <span>
          <span className="badge badge--down">Suspended</span>
        </span>
        {pair.suspended_reason && <span className="small risk-reason">{pair.suspended_reason}</span>}
        {pair.suspended_at && (
          <span className="muted small">{`Since ${formatDateTime(pair.suspended_at)}`}</span>
        )}
      </div>
    </td>
  );
}

interface Props {
  pair: PairRisk;
  /** A resume of this pair is in flight. */
  busy: boolean;
  onResume: () => void;
  /** The pair's settings were saved (its payouts may have moved). */
  onSaved: () => void;
}

/** A pair's exposure on each side, the house's P/L, the breaker's state, and its settings on demand. */
export function PairRiskRow({ pair, busy, onResume, onSaved }: Props) {
  const [editing, setEditing] = useState(false);
  return (
    <>
      <tr>
        <td>
          <div className="admin-table__strong">{pair.symbol}</div>
          <div className="muted small">{`Payout ${pair.payout_pct}%`}</div>
        </td>
        <ExposureCell direction="UP" side={pair.up} />
        <ExposureCell direction="DOWN" side={pair.down} />
        <td>
          <div className="risk-exposure">
            <span
              className={pnlClass(pair.pnl_today)}
            >{`Today ${formatSignedRiskDollars(pair.pnl_today)}`}</span>
            <span className={pnlClass(pair.pnl_window)}>
              {`Window ${formatSignedRiskDollars(pair.pnl_window)}`}
            </span>
            <span className="muted small">{formatBreaker(pair.settings)}</span>
          </div>
        </td>
        <StatusCell pair={pair} />
        <td>
          <div className="admin-actions risk-actions">
            <button
              type="button"
              className="button button--outline admin-button--small"
              aria-expanded={editing}
              onClick={() => setEditing((open) => !open)}
            >
              Edit
            </button>
            {pair.suspended && (
              <button
                type="button"
                className="button admin-button--small admin-button--approve"
                disabled={busy}
                onClick={onResume}
              >
                Resume
              </button>
            )}
          </div>
        </td>
      </tr>
      {editing && (
        <tr className="admin-pairs__feed-row">
          <td colSpan={PAIR_RISK_COLUMNS.length}>
            <PairRiskEditor
              pair={pair}
              onCancel={() => setEditing(false)}
              onSaved={() => {
                setEditing(false);
                onSaved();
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}
