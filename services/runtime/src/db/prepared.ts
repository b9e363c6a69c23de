import {
  sql,
  type CompiledQuery,
  type Compilable,
  type Kysely,
  type QueryResult,
  type RawBuilder,
  type Transaction,
} from 'kysely';
import type pg from 'pg';
import {
  isDescribedOn,
  queryDescribedOnce,
  queryPipelined,
  type PipelinedStatement,
} from './described-query';
import type { Database } from './schema';

/**
 * Opt-in named prepared statements for the few statements on a hot path.
 *
 * Kysely sends every query as an unnamed statement, which PostgreSQL parses and plans again each
 * time. For the short statements of a trade placement that is most of their cost: measured on the
 * 2-core bench machine, three small reads took ~280 µs of server CPU unnamed and ~85 µs prepared,
 * and the client spends less too (no Parse message, no plan to wait for). A statement run through
 * `executePrepared` is sent under a fixed name: each pooled connection parses and plans it once,
 * then only binds and executes it (PostgreSQL keeps custom plans for the first executions and
 * switches to a generic one only when it is not dearer).
 *
 * Only texts passed here are prepared, and at most `PREPARED_TEXTS_MAX` of them per process: a
 * caller whose text varies (an IN list of varying length) cannot grow every connection's statement
 * cache without bound; past the cap, statements simply run unnamed as before. Use it only for
 * statements whose text is fixed and whose result columns are named: PostgreSQL refuses to run a
 * prepared statement whose result type changed, so a `select *` or `returning *` would fail in a
 * running process once a migration adds a column to its table (named columns keep working).
 *
 * Prepared is not yet planned once: PostgreSQL plans the first five executions with their values
 * and keeps a generic plan only if it is costed no higher than those. An array parameter planned
 * with its value is estimated at its length (one element for a lone placement), without it at ten,
 * so a statement that joins or filters on one can look dearer generic forever and be planned again
 * on every execution. That is what the placement's context read did: it joins its users to the
 * settings singletons, which change too rarely for autovacuum ever to analyze them and are costed
 * at PostgreSQL's default for a table without statistics (some 2,000 rows), ten times over in the
 * generic plan; it had no generic plan in 550 runs, and with one a placement used ~300 µs less
 * backend CPU. Such an array is
 * written as a scalar subquery, `unnest((select $1::text[]))` or `= any((select $1::text[])::text[])`:
 * its value is then hidden from both estimates, they cost the same, and the generic plan is kept
 * (`pg_prepared_statements.generic_plans` shows it).
 */
export const PREPARED_TEXTS_MAX = 64;

const names = new Map<string, string>();

/** The statement name a text is prepared under, if it has been opted in. */
export function preparedName(text: string): string | undefined {
  return names.get(text);
}

/**
 * Runs a query (a builder, or `sql\`...\`.compile(db)`) as a named prepared statement, through the
 * connection of `db` (a transaction's when given one), exactly as `db.executeQuery` would.
 */
export function executePrepared<R>(
  db: Kysely<Database> | Transaction<Database>,
  query: CompiledQuery<R> | Compilable<R>,
): Promise<QueryResult<R>> {
  const compiled = 'compile' in query ? query.compile() : query;
  nameFor(compiled.sql);
  return db.executeQuery(compiled);
}

/**
 * A statement text fixed once, at module level, with `$1`, `$2`, … placeholders (a placeholder
 * may appear more than once; the text holds no other `$`): each call binds only its values,
 * `Params` in `$n` order. The result is a builder, so it runs through the caller's plugins like
 * any other query.
 */
export function fixedStatement<R, Params extends readonly unknown[]>(
  text: string,
): (...params: Params) => RawBuilder<R> {
  const parts = text.split(/\$\d+/);
  const order = [...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]) - 1);
  const strings = Object.assign([...parts], { raw: [...parts] }) as readonly string[] as TemplateStringsArray;
  return (...params) => sql<R>(strings, ...order.map((index) => params[index]));
}

/**
 * A transaction held on a pooled pg client directly (`runPgTransaction`), for the placement batch:
 * its fixed statements go straight to the client, without kysely's per-statement compile,
 * plugins and result objects. One per transaction, so state kept per transaction (the wallet's
 * lock ladder) is keyed by it, never by the client, which outlives it.
 *
 * Statements started in the same turn of the code (before the microtask queue drains) go to the
 * server together: PostgreSQL runs them in the order they were started and answers them all in
 * one round trip (`queryPipelined`). So `Promise.all` over independent statements, or over the
 * functions that start them, costs one wait for the server instead of one each, and the time a
 * transaction stays open while the process does other work between statements shrinks with it.
 * A statement not yet parsed and described on this connection (the first use of a pooled
 * connection), or one run unnamed, goes alone, in its place in the order. Each send waits for the
 * one before it to be answered: the client is never handed a query while it runs another (a queue
 * node-postgres deprecates).
 */
export class PgTransaction {
  private queued: QueuedStatement[] = [];
  /** Settles when everything sent so far has been answered; never rejects. */
  private answered: Promise<void> = Promise.resolve();

  constructor(private readonly client: pg.ClientBase) {}

  /**
   * Runs `text` with `values` (as the named statement `name` when given), after every statement
   * this transaction started before it.
   */
  run(name: string | undefined, text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      if (this.queued.length === 0) queueMicrotask(() => this.send());
      this.queued.push({ name, text, values, resolve, reject });
    });
  }

  private send(): void {
    const statements = this.queued;
    this.queued = [];
    let together: (QueuedStatement & { name: string })[] = [];
    const sendTogether = () => {
      const group = together;
      if (group.length > 1) this.after(() => queryPipelined(this.client, group));
      else if (group.length === 1) this.after(() => sendAlone(this.client, group[0]!));
      together = [];
    };
    for (const statement of statements) {
      if (statement.name !== undefined && isDescribedOn(this.client, statement.name)) {
        together.push(statement as QueuedStatement & { name: string });
      } else {
        sendTogether();
        this.after(() => sendAlone(this.client, statement));
      }
    }
    sendTogether();
  }

  private after(send: () => Promise<void>): void {
    this.answered = this.answered.then(send);
  }
}

interface QueuedStatement extends Omit<PipelinedStatement, 'name'> {
  readonly name: string | undefined;
}

/** Sends one statement; resolves once its outcome went to its own `resolve` or `reject`. */
function sendAlone(
  client: pg.ClientBase,
  { name, text, values, resolve, reject }: QueuedStatement,
): Promise<void> {
  const mutable = values as unknown[];
  try {
    return (
      name === undefined
        ? client.query({ text, values: mutable })
        : queryDescribedOnce(client, name, text, mutable)
    ).then(resolve, reject);
  } catch (error) {
    // A client that throws instead of rejecting must not stop the statements queued after this one.
    reject(error as Error);
    return Promise.resolve();
  }
}

/** A transaction either way: kysely's (everything else) or a raw client's (the placement batch). */
export type SqlTransaction = Transaction<Database> | PgTransaction;

/** Where a fixed statement can run. */
export type StatementTarget = Kysely<Database> | SqlTransaction;

/**
 * Runs `steps` in the transaction in the order given, for steps whose statements must run in that
 * order but do not need each other's results (take the locks, then read under them). On a
 * `PgTransaction` they start at once, so their statements go to the server together and cost one
 * round trip; on a kysely transaction each starts when the one before it has finished. Resolves
 * with their results once all have settled, or rejects with the first step's error in order.
 */
export async function together<const Steps extends readonly (() => Promise<unknown>)[]>(
  trx: SqlTransaction,
  ...steps: Steps
): Promise<{ -readonly [K in keyof Steps]: Awaited<ReturnType<Steps[K]>> }> {
  const results: unknown[] = [];
  if (trx instanceof PgTransaction) {
    // Settled, all of them, before anything is thrown: none may still be running on the
    // transaction when the caller rolls it back.
    const started = steps.map((step) => {
      try {
        return step();
      } catch (error) {
        return Promise.reject(error);
      }
    });
    for (const outcome of await Promise.allSettled(started)) {
      if (outcome.status === 'rejected') throw outcome.reason;
      results.push(outcome.value);
    }
  } else {
    for (const step of steps) results.push(await step());
  }
  return results as { -readonly [K in keyof Steps]: Awaited<ReturnType<Steps[K]>> };
}

/** `begin` and `commit` are prepared like the work's statements, so they can go with them. */
const BEGIN = nameFor('begin');
const COMMIT = nameFor('commit');

/**
 * Begins a transaction on a client of `pool`, runs `work` on it, commits, and releases the client;
 * on any error it rolls back and rethrows. `begin` is sent with the work's first statements (one
 * round trip for both), and `begin` and `commit` are named statements like the work's, so they
 * pipeline with it. A client whose rollback fails (its connection is gone) is destroyed rather
 * than returned to the pool. An error from the commit itself is thrown as it is: the caller that
 * needs to tell it apart knows whether `work` had returned.
 */
export async function runPgTransaction<T>(
  pool: pg.Pool,
  work: (trx: PgTransaction) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const trx = new PgTransaction(client);
  let broken: Error | undefined;
  try {
    // `begin` goes to the server with the work's first statements.
    const [, result] = await together(
      trx,
      () => trx.run(BEGIN, 'begin', []),
      () => work(trx),
    );
    await trx.run(COMMIT, 'commit', []);
    return result;
  } catch (error) {
    try {
      await trx.run(undefined, 'rollback', []);
    } catch (rollbackError) {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

function nameFor(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < PREPARED_TEXTS_MAX) {
    name = `updown_prepared_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A hot statement of fixed text (`fixedStatement`), run as a named prepared statement: its text
 * is the same on every call by construction, so each connection parses and plans it once.
 *
 * On a kysely connection or transaction it runs as a builder, through the caller's plugins (a
 * test's plugin that fails the ledger write must see it). On a `PgTransaction` it is sent as it
 * is on the client, with its values in `$n` order (and with the statements started alongside it,
 * see `PgTransaction`): nothing is compiled or wrapped per call, and no plugin runs, which only
 * the placement batch, which has none, does.
 */
export function preparedStatement<R, Params extends readonly unknown[]>(
  text: string,
): (db: StatementTarget, ...params: Params) => Promise<QueryResult<R>> {
  const build = fixedStatement<R, Params>(text);
  return (db, ...params) => {
    if (db instanceof PgTransaction) {
      return db.run(nameFor(text), text, params) as unknown as Promise<QueryResult<R>>;
    }
    return executePrepared(db, build(...params).compile(db));
  };
}

/**
 * As `preparedStatement`, but unnamed (planned for its values on every run): for a statement whose
 * best plan depends on its arrays' size (the ledger's large batches).
 */
export function unnamedStatement<R, Params extends readonly unknown[]>(
  text: string,
): (db: StatementTarget, ...params: Params) => Promise<QueryResult<R>> {
  const build = fixedStatement<R, Params>(text);
  return (db, ...params) => {
    if (db instanceof PgTransaction) {
      return db.run(undefined, text, params) as unknown as Promise<QueryResult<R>>;
    }
    return build(...params).execute(db);
  };
}

/**
 * The columns of a prepared statement's select or `returning` list: every column of `Row`, by name
 * (never `*`, see above). The list must name every key of `Row`: when a migration adds a column
 * and the table's type gains it, the caller fails to compile until its list names the column too,
 * so a statement cannot silently return less than its type says.
 */
export function allColumns<Row>() {
  return <const Columns extends readonly (keyof Row & string)[]>(
    columns: Columns &
      ([Exclude<keyof Row, Columns[number]>] extends [never]
        ? unknown
        : { readonly missingColumns: Exclude<keyof Row, Columns[number]> }),
  ): Columns => columns;
}

/** `a.x, a.y, …` for a statement's text. */
export function selectList(columns: readonly string[], alias?: string): string {
  return columns.map((column) => (alias === undefined ? column : `${alias}.${column}`)).join(', ');
}
