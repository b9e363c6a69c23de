import {
  createLogger,
  loadRuntimeConfig,
  openDatabase,
  resolveSigningKey,
  systemClock,
} from '@updown/runtime';
import { verifyTickChains } from '@updown/price-ingest';
import { verifyReceipts } from '@updown/settlement';
import { formatReport, verifyLedger } from '@updown/wallet';
import { formatEvidenceReport } from './verify-report';

/**
 * `npm run ledger:verify`: checks every ledger invariant, every pair's tick chain and checkpoint,
 * and every receipt against its trade and ledger entry (docs/receipts.md), against `DATABASE_URL`
 * or the embedded database (the one `npm start` is using, if it is running). The key set is the
 * platform's (`SIGNING_KEY`, `SIGNING_KEYS_RETIRED`, or the key in `DATA_DIR`). Exit 0 when clean,
 * 1 on any violation, 2 when the check could not run. `--json` prints the reports as JSON.
 */
async function main(): Promise<number> {
  const config = loadRuntimeConfig();
  const logger = createLogger({ level: 'warn', name: 'ledger-verify' });
  const database = await openDatabase(config, logger, 'updown-ledger-verify');
  try {
    const { keySet } = await resolveSigningKey(config, logger);
    const ledger = await verifyLedger(database.db);
    const chains = await verifyTickChains(database.db, keySet);
    const receipts = await verifyReceipts(database.db, keySet, systemClock.nowMs());
    const ok = ledger.ok && chains.violations.length === 0 && receipts.violations.length === 0;
    if (process.argv.includes('--json'))
      console.log(JSON.stringify({ ok, ledger, chains, receipts }, null, 2));
    else console.log([formatReport(ledger), ...formatEvidenceReport(chains, receipts)].join('\n'));
    return ok ? 0 : 1;
  } finally {
    await database.shutdown();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`verification could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
