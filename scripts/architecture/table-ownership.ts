import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Finds where source names a database table, so a test can hold every table to its owner: the
 * package that lists it under `updown.tables` in its package.json. Only code is read: comments are
 * blanked first, and a table counts only as a query target (a kysely builder's table argument,
 * `sql.table`, a quoted table name or `table.column`, or SQL text after from, join, update, into,
 * table or references).
 */

export interface Mention {
  readonly table: string;
  readonly line: number;
  /** `references` when the only thing named is a foreign key's target. */
  readonly kind: 'query' | 'references';
}

/** Replaces every comment with spaces (newlines kept, so line numbers hold); strings are left alone. */
export function blankComments(source: string): string {
  const out = source.split('');
  // Each entry is what closes the current context: a quote for a string, '}' for a template's `${`.
  const stack: string[] = [];
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < source.length) {
    const top = stack[stack.length - 1];
    const c = source[i]!;
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
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function patternsFor(table: string): { query: RegExp[]; references: RegExp } {
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
 * Strings that share a table's name without naming the table: an OpenAPI tag (`tags: ['trades']`)
 * and an audit record's target label (`target: 'platform_settings'`), both part of the public
 * contract or stored data rather than a query.
 */
function blankLabels(code: string): string {
  return code.replace(/\b(?:tags|target)\s*:\s*(?:\[[^\]\n]*\]|'[^'\n]*'|"[^"\n]*")/g, (label) =>
    label.replace(/[^\n]/g, ' '),
  );
}

/** Every mention of the given tables in one file's source, comments ignored. */
export function findMentions(source: string, tables: readonly string[]): Mention[] {
  const code = blankLabels(blankComments(source));
  const lineOf = (index: number) => code.slice(0, index).split('\n').length;
  const found = new Map<string, Mention>();
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

/** Lines of a read model that write or lock rows; a read model may only read. */
export function readModelWrites(source: string): number[] {
  const code = blankComments(source);
  const pattern =
    /\b(?:insertInto|updateTable|deleteFrom|mergeInto|replaceInto|forUpdate|forNoKeyUpdate|forShare|forKeyShare)\s*\(|\binsert\s+into\b|\bupdate\s+\w+\s+set\b|\bdelete\s+from\b|\bfor\s+(?:no\s+key\s+)?update\b|\bfor\s+(?:key\s+)?share\b|\btruncate\b/gi;
  return [...code.matchAll(pattern)].map((match) => code.slice(0, match.index).split('\n').length);
}

export interface Violation {
  /** Relative to the repository root. */
  readonly file: string;
  readonly line: number;
  readonly table: string;
  readonly owner: string;
}

export interface OwnershipReport {
  readonly violations: Violation[];
  /** `file:line` of each write or lock in a read model. */
  readonly readModelWrites: string[];
}

/** Each table's owning package, from the `updown.tables` field of `services/<package>/package.json`. */
export function tableOwners(repoRoot: string): Map<string, string> {
  const owners = new Map<string, string>();
  for (const pkg of readdirSync(path.join(repoRoot, 'services'))) {
    let manifest: { updown?: { tables?: string[] } };
    try {
      manifest = JSON.parse(
        readFileSync(path.join(repoRoot, 'services', pkg, 'package.json'), 'utf8'),
      ) as typeof manifest;
    } catch {
      continue;
    }
    for (const table of manifest.updown?.tables ?? []) {
      const other = owners.get(table);
      if (other) throw new Error(`${table} is claimed by both ${other} and ${pkg}`);
      owners.set(table, pkg);
    }
  }
  return owners;
}

/**
 * The product's TypeScript under `services/<package>/src`. Test code is left out: tests and their
 * fixtures (`*.test.ts`, `testing/` folders, `testing.ts` helpers) seed and inspect whatever tables
 * the behaviour under test touches, which is observation, not ownership.
 */
export function sourceFiles(repoRoot: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'testing') walk(full);
      } else if (
        /\.tsx?$/.test(entry.name) &&
        !/\.test\.tsx?$/.test(entry.name) &&
        entry.name !== 'testing.ts' &&
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

/**
 * Every mention of a table outside its owner, except in read models (`*.read-model.ts`, which are
 * checked for writes instead) and the foreign keys listed in `allowedReferences` (`file` → tables).
 */
export function checkOwnership(
  repoRoot: string,
  allowedReferences: ReadonlyArray<{ file: string; table: string }>,
): OwnershipReport {
  const owners = tableOwners(repoRoot);
  const tables = [...owners.keys()];
  const violations: Violation[] = [];
  const writes: string[] = [];
  for (const file of sourceFiles(repoRoot)) {
    const pkg = file.split('/')[1]!;
    const source = readFileSync(path.join(repoRoot, file), 'utf8');
    if (file.endsWith('.read-model.ts')) {
      for (const line of readModelWrites(source)) writes.push(`${file}:${line}`);
      continue;
    }
    for (const mention of findMentions(source, tables)) {
      const owner = owners.get(mention.table)!;
      if (owner === pkg) continue;
      if (
        mention.kind === 'references' &&
        allowedReferences.some((allowed) => allowed.file === file && allowed.table === mention.table)
      )
        continue;
      violations.push({ file, line: mention.line, table: mention.table, owner });
    }
  }
  return { violations, readModelWrites: writes };
}
