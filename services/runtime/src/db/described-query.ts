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
  bind(config: object): void;
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
