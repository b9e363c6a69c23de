import type { CheckStep } from '../../lib/disputes';

const STATUS_CLASS: Record<CheckStep['status'], string> = {
  ok: 'badge badge--up',
  fail: 'badge badge--down',
  warn: 'badge badge--pending',
  skipped: 'badge badge--neutral',
};

/**
 * Checked steps one a line, each with its status and what was found: the browser's verification
 * of a receipt, and the server's replay of a disputed settlement (the evidence an admin decides on).
 */
export function StepList({ steps, label }: { steps: readonly CheckStep[]; label: string }) {
  return (
    <ol className="step-list" aria-label={label}>
      {steps.map((step) => (
        <li key={step.id} className="step-list__item" data-step={step.id}>
          <span className={STATUS_CLASS[step.status]}>{step.status}</span>
          <div className="step-list__text">
            <strong>{step.title}</strong>
            {step.detail !== '' && <span className="muted small">{step.detail}</span>}
          </div>
        </li>
      ))}
    </ol>
  );
}
