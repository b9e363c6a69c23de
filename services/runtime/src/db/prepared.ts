import {
  sql,
  type CompiledQuery,
  type Compilable,
  type Kysely,
  type QueryResult,
  type RawBuilder,
  type Transaction,
} from 'kysely';
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
  if (!names.has(compiled.sql) && names.size < PREPARED_TEXTS_MAX) {
    names.set(compiled.sql, `updown_prepared_${names.size + 1}`);
  }
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
 * A hot statement of fixed text (`fixedStatement`), run as a named prepared statement: its text
 * is the same on every call by construction, so each connection parses and plans it once.
 */
export function preparedStatement<R, Params extends readonly unknown[]>(
  text: string,
): (db: Kysely<Database> | Transaction<Database>, ...params: Params) => Promise<QueryResult<R>> {
  const build = fixedStatement<R, Params>(text);
  return (db, ...params) => executePrepared(db, build(...params).compile(db));
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
