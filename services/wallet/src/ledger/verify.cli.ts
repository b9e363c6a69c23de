import { createLogger, loadRuntimeConfig, openDatabase } from '@updown/runtime';
import { formatReport, verifyLedger } from './verify';

/**
 * `npm run ledger:verify`: checks every ledger invariant against `DATABASE_URL` or the embedded
 * database (the one `npm start` is using, if it is running). Exit 0 when clean, 1 on any violation,
 * 2 when the check could not run. `--json` prints the report as JSON.
 */
async function main(): Promise<number> {
  const config = loadRuntimeConfig();
  const logger = createLogger({ level: 'warn', name: 'ledger-verify' });
  const database = await openDatabase(config, logger, 'updown-ledger-verify');
  try {
    const report = await verifyLedger(database.db);
    console.log(process.argv.includes('--json') ? JSON.stringify(report, null, 2) : formatReport(report));
    return report.ok ? 0 : 1;
  } finally {
    await database.shutdown();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      `ledger verification could not run: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(2);
  },
);
