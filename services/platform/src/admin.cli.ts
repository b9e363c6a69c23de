import { parseArgs } from 'node:util';
import { createLogger, DomainError, failureText, migrateToLatest, openDatabase } from '@updown/runtime';
import { createOrPromoteAdmin } from '@updown/accounts';
import { accountOpener, loadGatewayConfig } from '@updown/gateway';
import { allMigrations } from './migrations';

const USAGE = `Usage: npm run admin:create -- --email <email> [--password <password>] [--name <name>] [--reset-password]

Creates an admin account, or promotes the existing account with that email to admin.
The password of an existing account is changed only with --reset-password (which also signs it
out everywhere). --email and --password fall back to ADMIN_EMAIL and ADMIN_PASSWORD, which keeps
the password out of the shell history. Uses DATABASE_URL, or the embedded database under DATA_DIR.`;

function readArgs() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      'reset-password': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  return values;
}

async function main(): Promise<number> {
  let args: ReturnType<typeof readArgs>;
  try {
    args = readArgs();
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadGatewayConfig();
  const email = args.email ?? config.ADMIN_EMAIL;
  if (email === undefined) {
    console.error(`--email is required\n\n${USAGE}`);
    return 2;
  }
  // Quiet unless something goes wrong: the command prints its own one-line outcome.
  const logger = createLogger({ level: 'warn', name: 'admin-create' });
  const database = await openDatabase(config, logger, 'updown-admin-create');
  try {
    await migrateToLatest(database.db, allMigrations);
    const outcome = await createOrPromoteAdmin(
      database.db,
      {
        email,
        password: args.password ?? config.ADMIN_PASSWORD,
        name: args.name,
        resetPassword: args['reset-password'],
      },
      { openAccount: accountOpener(database.db) },
    );
    const lines = {
      created: `Created admin account ${email}.`,
      promoted: `Promoted ${email} to admin.`,
      already_admin: `${email} is already an admin.`,
    };
    console.log(lines[outcome.result]);
    if (outcome.passwordReset) console.log('Password changed; existing sessions were signed out.');
    else if (outcome.result !== 'created' && args.password !== undefined) {
      console.log('The password was left unchanged; add --reset-password to change it.');
    }
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    console.error(error.message);
    return 1;
  } finally {
    await database.shutdown();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(failureText(error));
    process.exitCode = 1;
  },
);
