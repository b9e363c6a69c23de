import type { ChainReport } from '@updown/price-ingest';
import type { ReceiptsReport } from '@updown/settlement';

/** The tick-chain and receipt parts of `npm run ledger:verify`'s report, one line per violation. */
export function formatEvidenceReport(chains: ChainReport, receipts: ReceiptsReport): string[] {
  const section = (
    head: string,
    okText: string,
    violations: readonly { check: string; detail: string }[],
    truncated: number,
  ) => {
    if (violations.length === 0) return [`${head}: OK (${okText})`];
    const more = truncated > 0 ? [`  ... and ${truncated} more`] : [];
    return [
      `${head}: ${violations.length + truncated} VIOLATION(S)`,
      ...violations.map((v) => `  ${v.check}: ${v.detail}`),
      ...more,
    ];
  };
  return [
    ...section(
      `tick chains: ${chains.pairs} pairs, ${chains.ticks} ticks, ${chains.checkpoints} checkpoints`,
      'every hash, link and signed checkpoint holds',
      chains.violations,
      chains.truncated,
    ),
    ...section(
      `receipts: ${receipts.receipts}`,
      'signed, and matching their trades, the rules, the ledger and the stored ticks',
      receipts.violations,
      receipts.truncated,
    ),
  ];
}
