import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Holds every table to its owner, the package whose migrations create it, for the `updown/table-owner`
 * lint rule (eslint.config.js) and the architecture test beside this file. Which package creates
 * which table is not guessed from text: `table-owners.json` is what running each package's
 * migrations on an empty database creates, floor by floor (the platform's migrations test writes
 * and checks it). Finding where source names a table is textual: comments are blanked first, and a
 * table counts only as a query target (a kysely builder's table argument, `sql.table`, a quoted
 * table name or `table.column`, or SQL text after from, join, update, into, table or references).
 */

/**
 * @typedef {object} Mention
 * @property {string} table
 * @property {number} line
 * @property {'query' | 'references'} kind `references` when the only thing named is a foreign key's target.
 */

/**
 * Replaces every comment with spaces (newlines kept, so line numbers hold); strings are left alone.
 *
 * @param {string} source
 * @returns {string}
 */
export function blankComments(source) {
  const out = source.split('');
  // Each entry is what closes the current context: a quote for a string, '}' for a template's `${`.
  /** @type {string[]} */
  const stack = [];
  let i = 0;
  /** @param {number} from @param {number} to */
  const blank = (from, to) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < source.length) {
    const top = stack[stack.length - 1];
    const c = source[i];
    if (top === "'" || top === '"' || top === '`') {
      if (c === '\\') i += 2;
      else if (c === top) {
        stack.pop();
        i++;
      } else if (top === '`' && c === '$' && source[i + 1] === '{') {
        stack.push('}');
        i += 2;
      } else i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      stack.push(c);
      i++;
    } else if (c === '{' && top === '}') {
      stack.push('}');
      i++;
    } else if (c === '}' && top === '}') {
      stack.pop();
      i++;
    } else i++;
  }
  return out.join('');
}

const BUILDERS =
  'selectFrom|insertInto|updateTable|deleteFrom|mergeInto|replaceInto|with|withRecursive|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin|innerJoinLateral|leftJoinLateral|using|table';
/** @param {string} text */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * @param {string} table
 * @returns {{ query: RegExp[], references: RegExp }}
 */
function patternsFor(table) {
  const t = escape(table);
  return {
    query: [
      // db.selectFrom('trades'), .innerJoin('users as u', ...), sql.table('bonuses'), schema.table('x')
      new RegExp(`\\b(?:${BUILDERS})\\(\\s*['"\`]${t}(?:\\s+as\\s+\\w+)?['"\`]`, 'g'),
      // 'trades', "trades", 'trades as t', 'trades.user_id'
      new RegExp(`['"\`]${t}(?:\\s+as\\s+\\w+|\\.\\w+)?['"\`]`, 'g'),
      // SQL text: from trades, join users u, update bonuses, insert into trades, alter table trades
      new RegExp(`\\b(?:from|join|update|into|table)\\s+(?:only\\s+)?(?:public\\.)?${t}\\b(?!\\s*\\()`, 'gi'),
    ],
    references: new RegExp(`\\breferences\\s+(?:public\\.)?${t}\\b`, 'gi'),
  };
}

/**
 * Strings that share a table's name without naming the table: an OpenAPI tag (`tags: ['trades']`),
 * an audit record's target label (`target: 'platform_settings'`) and an exchange's channel event
 * (`event_trigger: 'trades'`), part of a public contract or of stored data rather than a query.
 */
/** @param {string} code */
function blankLabels(code) {
  return code.replace(
    /\b(?:tags|target|event_trigger)\s*:\s*(?:\[[^\]\n]*\]|'[^'\n]*'|"[^"\n]*")/g,
    (label) => label.replace(/[^\n]/g, ' '),
  );
}

/**
 * Every mention of the given tables in one file's source, comments ignored.
 * @param {string} source
 * @param {readonly string[]} tables
 * @returns {Mention[]}
 */
export function findMentions(source, tables) {
  const code = blankLabels(blankComments(source));
  /** @param {number} index */
  const lineOf = (index) => code.slice(0, index).split('\n').length;
  /** @type {Map<string, Mention>} */
  const found = new Map();
  for (const table of tables) {
    const { query, references } = patternsFor(table);
    for (const pattern of query)
      for (const match of code.matchAll(pattern)) {
        const line = lineOf(match.index);
        found.set(`${table}:${line}`, { table, line, kind: 'query' });
      }
    for (const match of code.matchAll(references)) {
      const line = lineOf(match.index);
      if (!found.has(`${table}:${line}`)) found.set(`${table}:${line}`, { table, line, kind: 'references' });
    }
  }
  return [...found.values()].sort((a, b) => a.line - b.line || a.table.localeCompare(b.table));
}

/**
 * Lines of a read model that write or lock rows; a read model may only read.
 * @param {string} source
 * @returns {number[]}
 */
export function readModelWrites(source) {
  const code = blankComments(source);
  const pattern =
    /\b(?:insertInto|updateTable|deleteFrom|mergeInto|replaceInto|forUpdate|forNoKeyUpdate|forShare|forKeyShare)\s*\(|\binsert\s+into\b|\bupdate\s+\w+\s+set\b|\bdelete\s+from\b|\bfor\s+(?:no\s+key\s+)?update\b|\bfor\s+(?:key\s+)?share\b|\btruncate\b/gi;
  return [...code.matchAll(pattern)].map((match) => code.slice(0, match.index).split('\n').length);
}

/**
 * @typedef {object} Ownership
 * @property {Map<string, string>} owners Each table's package.
 * @property {string[]} floors The packages that own tables, bottom up, in the order their migrations run.
 * @property {Map<string, { pkg: string, tables: string[] }>} readModels Each declared read model (its path from
 *   the repository root) with the other owners' tables it may read.
 */

/** Where the owner of each table is written down, floor by floor. */
export const TABLE_OWNERS_FILE = 'scripts/architecture/table-owners.json';

/**
 * The tables each package's migrations create (`table-owners.json`) and the read models each
 * package declares under `updown.readModels` in its package.json (file, from the package's folder,
 * → the other owners' tables it reads).
 * @param {string} repoRoot
 * @returns {Ownership}
 */
export function loadOwnership(repoRoot) {
  /** @type {{ owner: string, tables: string[] }[]} */
  const floors = JSON.parse(readFileSync(path.join(repoRoot, TABLE_OWNERS_FILE), 'utf8'));
  /** @type {Map<string, string>} */
  const owners = new Map();
  for (const { owner, tables } of floors)
    for (const table of tables) {
      const other = owners.get(table);
      if (other) throw new Error(`${table} is created by both ${other} and ${owner}`);
      owners.set(table, owner);
    }
  /** @type {Ownership['readModels']} */
  const readModels = new Map();
  for (const pkg of readdirSync(path.join(repoRoot, 'services'))) {
    /** @type {{ updown?: { readModels?: Record<string, string[]> } }} */
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(path.join(repoRoot, 'services', pkg, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    for (const [file, tables] of Object.entries(manifest.updown?.readModels ?? {}))
      readModels.set(`services/${pkg}/${file}`, { pkg, tables });
  }
  return { owners, floors: floors.map((floor) => floor.owner), readModels };
}

/**
 * @typedef {object} Problem
 * @property {number} line
 * @property {string} message
 */

/**
 * What one product file does wrong with tables: naming another owner's table (outside a foreign
 * key in a migration that points down a floor, and outside a declared read model's list), a read
 * model that is not declared, names a table it did not declare, or writes or locks rows.
 * @param {Ownership} ownership
 * @param {string} file Path from the repository root, `/`-separated.
 * @param {string} source
 * @returns {Problem[]}
 */
export function ownershipProblems(ownership, file, source) {
  const pkg = /^services\/([^/]+)\/src\//.exec(file)?.[1];
  if (pkg === undefined) return [];
  const { owners, floors, readModels } = ownership;
  /** @type {Problem[]} */
  const problems = [];
  const isReadModel = file.endsWith('.read-model.ts');
  const declared = readModels.get(file);
  if (isReadModel) {
    if (!declared)
      problems.push({
        line: 1,
        message: `${file} is a read model its package does not declare: list it with the tables it reads under "updown": {"readModels"} in services/${pkg}/package.json.`,
      });
    for (const table of declared?.tables ?? [])
      if (!owners.has(table))
        problems.push({
          line: 1,
          message: `The read model declares ${table}, which no package's migrations create.`,
        });
    for (const line of readModelWrites(source))
      problems.push({ line, message: 'A read model only reads: no insert, update, delete or row lock.' });
  } else if (declared) {
    problems.push({
      line: 1,
      message: `${file} is declared as a read model but is not named *.read-model.ts.`,
    });
  }
  const inMigration = file.startsWith(`services/${pkg}/src/db/migrations/`);
  for (const mention of findMentions(source, [...owners.keys()])) {
    const owner = /** @type {string} */ (owners.get(mention.table));
    if (owner === pkg) continue;
    if (isReadModel && declared?.tables.includes(mention.table)) continue;
    const pointsDown = floors.includes(pkg) && floors.indexOf(owner) < floors.indexOf(pkg);
    if (mention.kind === 'references' && inMigration && pointsDown) continue;
    problems.push({
      line: mention.line,
      message:
        mention.kind === 'references'
          ? `A foreign key to ${mention.table} (${owner}'s) must point down a floor, from a migration of a package above ${owner}.`
          : `${mention.table} belongs to ${owner}: call ${owner}'s functions, or read it in a read model declared in services/${pkg}/package.json.`,
    });
  }
  return problems;
}

/**
 * The product's TypeScript under `services/<package>/src`, the helpers of `testing/` folders
 * included (other packages' tests call them). Test files are left out: a test seeds and inspects
 * whatever tables the behaviour under test touches, which is observation, not ownership.
 * @param {string} repoRoot
 * @returns {string[]}
 */
export function sourceFiles(repoRoot) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (
        /\.tsx?$/.test(entry.name) &&
        !/\.test\.tsx?$/.test(entry.name) &&
        !entry.name.endsWith('.d.ts')
      )
        files.push(path.relative(repoRoot, full).split(path.sep).join('/'));
    }
  };
  for (const pkg of readdirSync(path.join(repoRoot, 'services'), { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue;
    try {
      walk(path.join(repoRoot, 'services', pkg.name, 'src'));
    } catch {
      // a package without src
    }
  }
  return files.sort();
}
