import { createRequire } from 'node:module';
import pg from 'pg';

/**
 * A named statement run on a pg client that asks PostgreSQL for its result's description only
 * the first time on each connection.
 *
 * node-postgres sends Describe with every execution of a prepared statement, so the server sends a
 * RowDescription each time, and the client parses it (an object and a name string per column)
 * and builds the result's parsers and row template from it again. A named statement's columns do
 * not change on a connection (a statement whose result type changed fails to run at all, see
 * `prepared.ts`), so the first described execution's fields, parsers and template are kept per
 * connection and statement, and later executions are only bound and executed. A statement that
 * returns no rows is remembered as such.
 */

interface Described {
  readonly fields: unknown[];
  readonly parsers: unknown[] | undefined;
  readonly template: object | null;
}

/** The parts of node-postgres's `Query` and `Result` this builds on (pg 8; not in its types). */
interface QueryInternals {
  name?: string;
  text: string;
  values?: unknown[];
  portal: string;
  binary?: boolean;
  rows?: number;
  callback?: (error: Error | null, result?: pg.QueryResult) => void;
  _accumulateRows: boolean;
  _result: { fields: unknown[]; _parsers: unknown[] | undefined; _prebuiltEmptyResultObject: object | null };
  hasBeenParsed(connection: Connection): boolean;
  handleError(error: Error, connection: Connection): void;
  _getRows(connection: Connection, rows: number | undefined): void;
}

interface Connection {
  /** The named statements parsed on the connection, by name (kept by node-postgres). */
  readonly parsedStatements: Record<string, string>;
  bind(config: object): void;
  execute(config: object): void;
  close(config: object): void;
  sync(): void;
}

const describedBy = new WeakMap<Connection, Map<string, Described | null>>();

// node-postgres's own conversion of a parameter (Dates, Buffers, arrays, objects as JSON), as its
// `Query` binds with it.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as {
  prepareValue: (value: unknown) => unknown;
};

const BaseQuery = pg.Query as unknown as new (config: pg.QueryConfig) => object;

class DescribedQuery extends BaseQuery {
  /** The connection it was submitted on, while it describes its result there. */
  private describing: Connection | undefined;
  private described = false;

  prepare(this: DescribedQuery & QueryInternals, connection: Connection): void {
    const known = describedBy.get(connection)?.get(this.name!);
    if (known === undefined || !this.hasBeenParsed(connection)) {
      this.describing = connection;
      (BaseQuery.prototype as { prepare(connection: Connection): void }).prepare.call(this, connection);
      return;
    }
    try {
      connection.bind({
        portal: this.portal,
        statement: this.name,
        values: this.values,
        binary: this.binary,
        valueMapper: prepareValue,
      });
    } catch (error) {
      connection.close({ type: 'S', name: this.name });
      connection.sync();
      this.handleError(error as Error, connection);
      return;
    }
    if (known !== null) {
      this._result.fields = known.fields;
      this._result._parsers = known.parsers;
      this._result._prebuiltEmptyResultObject = known.template;
    }
    this._accumulateRows = true;
    this._getRows(connection, this.rows);
  }

  handleRowDescription(this: DescribedQuery & QueryInternals, message: unknown): void {
    (BaseQuery.prototype as { handleRowDescription(message: unknown): void }).handleRowDescription.call(
      this,
      message,
    );
    this.described = true;
    if (this.describing) {
      remember(this.describing, this.name!, {
        fields: this._result.fields,
        parsers: this._result._parsers,
        template: this._result._prebuiltEmptyResultObject,
      });
    }
  }

  handleCommandComplete(
    this: DescribedQuery & QueryInternals,
    message: unknown,
    connection: Connection,
  ): void {
    (
      BaseQuery.prototype as { handleCommandComplete(message: unknown, connection: Connection): void }
    ).handleCommandComplete.call(this, message, connection);
    // Described and no row description came: the statement returns no rows.
    if (this.describing && !this.described) remember(this.describing, this.name!, null);
  }
}

function remember(connection: Connection, name: string, described: Described | null): void {
  let statements = describedBy.get(connection);
  if (statements === undefined) {
    statements = new Map();
    describedBy.set(connection, statements);
  }
  statements.set(name, described);
}

/** Runs the named statement `name` (`text`) with `values` on `client`, described once per connection. */
export function queryDescribedOnce(
  client: pg.ClientBase,
  name: string,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new DescribedQuery({ name, text, values }) as DescribedQuery & QueryInternals;
    query.callback = (error, result) => (error ? reject(error) : resolve(result!));
    client.query(query as unknown as pg.QueryConfig);
  });
}

/** Whether the named statement `name` has been parsed and described on `client`'s connection. */
export function isDescribedOn(client: pg.ClientBase, name: string): boolean {
  const connection = connectionOf(client);
  return (
    connection !== undefined &&
    connection.parsedStatements[name] !== undefined &&
    describedBy.get(connection)?.has(name) === true
  );
}

function connectionOf(client: pg.ClientBase): Connection | undefined {
  return (client as unknown as { connection?: Connection }).connection;
}

/** One statement of a pipeline, and where its outcome goes. */
export interface PipelinedStatement {
  readonly name: string;
  /** The text `name` was prepared from (what was sent, for a reader of the query). */
  readonly text: string;
  readonly values: readonly unknown[];
  readonly resolve: (result: pg.QueryResult) => void;
  readonly reject: (error: Error) => void;
}

/**
 * What a statement of a pipeline gets when one before it failed: PostgreSQL skipped it (or, when
 * the earlier one's rows could not be read, ran it in a transaction that can only roll back).
 */
export class SkippedStatement extends Error {
  constructor(cause: Error) {
    super(`not used: an earlier statement sent with it failed (${cause.message})`, { cause });
    this.name = 'SkippedStatement';
  }
}

// node-postgres's result of one statement (its `Query` builds one the same way).
const Result = createRequire(import.meta.url)('pg/lib/result') as new () => QueryInternals['_result'] & {
  parseRow(fields: unknown[]): unknown;
  addRow(row: unknown): void;
  addCommandComplete(message: unknown): void;
};

/**
 * Statements sent together, as PostgreSQL's extended protocol allows: every statement's Bind and
 * Execute, then one Sync, in one write; the server runs them in order and answers once, so they
 * cost one round trip instead of one each. Only statements already parsed and described on the
 * connection go this way (`isDescribedOn`): nothing is parsed or described here, so the answers
 * are only each statement's rows and its CommandComplete. On an error PostgreSQL skips the rest
 * up to the Sync: the failed statement gets the error, those after it `SkippedStatement`.
 *
 * To node-postgres it is one query (a "submittable", as pg-cursor is), so nothing else runs on
 * the client in between.
 */
class PipelinedQuery {
  callback?: (error: Error | null) => void;
  private readonly results: InstanceType<typeof Result>[] = [];
  /** The statement whose answers arrive now. */
  private at = 0;
  /** A row that could not be parsed, and its statement: the first is reported at the end. */
  private rowError: { readonly error: Error; readonly at: number } | undefined;

  constructor(
    readonly statements: readonly PipelinedStatement[],
    connection: Connection,
  ) {
    for (const { name } of statements) {
      const result = new Result();
      const known = describedBy.get(connection)?.get(name);
      if (known) {
        result.fields = known.fields;
        result._parsers = known.parsers;
        result._prebuiltEmptyResultObject = known.template;
      }
      this.results.push(result);
    }
  }

  submit(connection: Connection & { stream: { cork?(): void; uncork?(): void } }): Error | null {
    // Every value converted before anything is written: a value that cannot be sent must not
    // leave the statements before it written and run.
    let values: unknown[][];
    try {
      values = this.statements.map((statement) => statement.values.map(prepareValue));
    } catch (error) {
      return error as Error;
    }
    connection.stream.cork?.();
    try {
      this.statements.forEach(({ name }, i) => {
        connection.bind({ portal: '', statement: name, values: values[i] });
        connection.execute({ portal: '', rows: 0 });
      });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(): void {
    this.fail(new Error('a pipelined statement was described again'));
  }

  private fail(error: Error): void {
    this.rowError ??= { error, at: this.at };
  }

  handleDataRow(message: { fields: unknown[] }): void {
    if (this.rowError) return;
    const result = this.results[this.at]!;
    try {
      result.addRow(result.parseRow(message.fields));
    } catch (error) {
      this.fail(error as Error);
    }
  }

  handleCommandComplete(message: unknown): void {
    this.results[this.at]?.addCommandComplete(message);
    this.at++;
  }

  handleEmptyQuery(): void {
    this.at++;
  }

  handlePortalSuspended(): void {
    this.fail(new Error('a pipelined statement was suspended'));
  }

  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}

  handleError(error: Error): void {
    this.settle(error, this.at);
  }

  handleReadyForQuery(): void {
    // Rows that could not be parsed fail their statement here, once the server is done, as
    // node-postgres does for a single query.
    if (this.rowError) this.settle(this.rowError.error, this.rowError.at);
    else this.settle(null, this.statements.length);
  }

  /** Statements before `failedAt` succeeded; that one failed with `error`, the rest were skipped. */
  private settle(error: Error | null, failedAt: number): void {
    const callback = this.callback;
    this.callback = undefined;
    this.statements.forEach((statement, i) => {
      if (error === null || i < failedAt) statement.resolve(this.results[i] as unknown as pg.QueryResult);
      else statement.reject(i === failedAt ? error : new SkippedStatement(error));
    });
    callback?.(error);
  }
}

/**
 * Sends `statements` (each `isDescribedOn` the client) as one pipeline: see `PipelinedQuery`. Each
 * statement's outcome goes to its own `resolve` or `reject`; the promise returned resolves once
 * all have had theirs, and never rejects.
 */
export function queryPipelined(
  client: pg.ClientBase,
  statements: readonly PipelinedStatement[],
): Promise<void> {
  return new Promise((done) => {
    const query = new PipelinedQuery(statements, connectionOf(client)!);
    // node-postgres calls back through `callback` (its query timeout wraps it); the outcomes went out already.
    query.callback = () => done();
    try {
      client.query(query as unknown as pg.QueryConfig);
    } catch (error) {
      for (const statement of statements) statement.reject(error as Error);
      done();
    }
  });
}
