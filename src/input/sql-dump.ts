import { ValidationError } from '../errors';

/** A value of a dumped row: text, a number, a boolean (HSQLDB's TRUE/FALSE), or NULL. */
export type SqlValue = string | number | boolean | null;

/** The two forms production's data comes in: a MariaDB/MySQL `mysqldump`, or an HSQLDB script. */
export type DumpDialect = 'mysql' | 'hsqldb';

/** What a dump holds that the emulator reads: a table's columns, and rows inserted into a table. */
export type DumpStatement =
  | { kind: 'create'; table: string; columns: string[]; declared: DeclaredColumn[]; line: number }
  | {
      kind: 'insert';
      table: string;
      columns: string[] | null;
      rows: SqlValue[][];
      line: number;
      /** Where row `k` begins: `file:line:column`, for a problem found in it later. */
      rowAt(k: number): string;
      /** Set for a table the reader did not want: its rows were not read. */
      skipped?: true;
    };

/** The longest statement read: a dump of real tables has none near it, and a line past it is a broken file. */
export const MAX_STATEMENT_CHARS = 64 * 2 ** 20;

/** Where a problem of a dump is: the file, its line and column (1-based). */
function failAt(file: string, line: number, column: number, problem: string): never {
  throw new ValidationError(`${file}:${line}:${column}`, problem);
}

/**
 * The dialect a dump is written in, from its first lines: an HSQLDB script begins by creating its
 * schema or setting its database; anything else is read as a mysqldump.
 * @example dumpDialect(['CREATE SCHEMA PUBLIC AUTHORIZATION DBA']) // 'hsqldb'
 */
export function dumpDialect(firstLines: readonly string[]): DumpDialect {
  return firstLines.some((l) => /^(CREATE SCHEMA PUBLIC|SET DATABASE )/.test(l)) ? 'hsqldb' : 'mysql';
}

/** An identifier as written: `name`, "name" or name. */
function unquoted(name: string): string {
  const t = name.trim();
  return /^[`"].*[`"]$/.test(t) ? t.slice(1, -1) : t;
}

/** Splits `text` at commas outside parentheses and quotes. */
function topLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

/** What a CREATE TABLE says a column holds, where the emulator reads it: a text's length, and NOT NULL. */
export interface DeclaredColumn {
  name: string;
  /** The length of a `VARCHAR(n)` or `CHAR(n)`; undefined for any other type. */
  max: number | undefined;
  notNull: boolean;
}

/** A CREATE TABLE's columns, in order; keys and constraints are not columns. */
function createColumns(body: string): DeclaredColumn[] {
  return topLevel(body)
    .map((d) => d.trim())
    .filter((d) => d !== '' && !/^(PRIMARY|UNIQUE|KEY|INDEX|CONSTRAINT|FOREIGN|FULLTEXT|CHECK)\b/i.test(d))
    .map((d) => {
      const name = unquoted(/^([`"][^`"]+[`"]|\S+)/.exec(d)?.[1] ?? d);
      const length = /^\S+\s+(?:VAR)?CHAR(?:ACTER)?(?:\s+VARYING)?\s*\(\s*(\d+)/i.exec(d);
      // A column is NOT NULL by its own words, or as the table's PRIMARY KEY.
      const notNull = /\bNOT\s+NULL\b|\bPRIMARY\s+KEY\b/i.test(d.replace(/'(?:[^']|'')*'/g, "''"));
      return { name, max: length === null ? undefined : Number(length[1]), notNull };
    });
}

/**
 * Reads a statement's rows: `(v, v, …), (…)` from `at`, as `dialect` writes its literals (mysql:
 * backslash escapes and doubled quotes; HSQLDB: doubled quotes only). Returns the rows.
 */
function readRows(
  text: string,
  at: number,
  dialect: DumpDialect,
  place: (i: number, problem?: string) => never,
  starts: number[],
): SqlValue[][] {
  const rows: SqlValue[][] = [];
  let i = at;
  const space = () => {
    // Space, tab, newline, carriage return: what separates a dump's values.
    for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  };
  for (;;) {
    space();
    if (text[i] !== '(') place(i);
    starts.push(i);
    i++;
    const row: SqlValue[] = [];
    for (;;) {
      space();
      row.push(readValue());
      space();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ')') {
        i++;
        break;
      }
      place(i);
    }
    rows.push(row);
    space();
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (i >= text.length || text[i] === ';') break;
    place(i);
  }
  return rows;

  function readValue(): SqlValue {
    const c = text[i];
    if (c === "'" || (c === '_' && /^_binary\s*'/i.test(text.slice(i, i + 9)))) {
      if (c === '_') i = text.indexOf("'", i);
      const start = i;
      i++;
      // Most texts hold no escape: up to the next quote, taken whole when no backslash or
      // doubled quote lies before it (a value a character at a time was most of a load).
      const close = text.indexOf("'", i);
      if (close >= 0 && text.charCodeAt(close + 1) !== 39) {
        let k = i;
        while (k < close && text.charCodeAt(k) !== 92) k++;
        if (k === close) {
          const whole = text.slice(i, close);
          i = close + 1;
          return whole;
        }
      }
      let out = '';
      for (;;) {
        if (i >= text.length) place(start, 'the string begun here is not closed');
        const ch = text[i] as string;
        if (ch === "'") {
          if (text[i + 1] === "'") {
            out += "'";
            i += 2;
            continue;
          }
          i++;
          return out;
        }
        // HSQLDB writes a character outside ASCII as \uXXXX, and nothing else after a backslash.
        if (ch === '\\' && dialect === 'hsqldb' && /^u[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 6))) {
          out += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
          continue;
        }
        if (ch === '\\' && dialect === 'mysql') {
          const e = text[i + 1];
          if (e === undefined) place(start, 'the string begun here is not closed');
          out += ({ '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' } as Record<string, string>)[e] ?? e;
          i += 2;
          continue;
        }
        out += ch;
        i++;
      }
    }
    const m = /^(NULL|TRUE|FALSE|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w.])/i.exec(text.slice(i, i + 64));
    if (m === null) place(i);
    i += m[1]?.length ?? 0;
    const word = (m[1] as string).toUpperCase();
    if (word === 'NULL') return null;
    if (word === 'TRUE' || word === 'FALSE') return word === 'TRUE';
    return Number(m[1]);
  }
}

/**
 * The statements of a dump that hold data, one at a time as its lines come: table definitions
 * (for the column order of an INSERT that names none) and inserted rows. Anything else a dump
 * holds (comments, `SET`, `LOCK TABLES`, users, grants, sequences) is passed over. A statement
 * ends at its `;` (mysqldump, which may write a CREATE TABLE over many lines) or at its line's
 * end (HSQLDB). A problem is a ValidationError naming the file, line and column. The rows of a
 * table `wanted` refuses are not read (the statement comes with none, marked `skipped`).
 * @example [...readDump(["INSERT INTO `t` VALUES (1,'a'),(2,NULL);"], 'd.sql', 'mysql')] // [{ kind: 'insert', table: 't', columns: null, rows: [[1, 'a'], [2, null]], line: 1 }]
 */
export function* readDump(
  lines: Iterable<string>,
  file: string,
  dialect: DumpDialect,
  wanted: (table: string) => boolean = () => true,
): Generator<DumpStatement> {
  let pending = '';
  let startLine = 0;
  let n = 0;
  for (const raw of lines) {
    n++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.length > MAX_STATEMENT_CHARS)
      failAt(file, n, MAX_STATEMENT_CHARS, 'the line is longer than any statement of a dump (64 MB)');
    if (pending === '') {
      const t = line.trimStart();
      if (t === '' || t.startsWith('--') || t.startsWith('#') || (t.startsWith('/*') && !t.startsWith('/*!'))) continue;
      if (!/^(CREATE\s+(MEMORY\s+|CACHED\s+|TEMP\s+)?TABLE|INSERT\s+INTO)\b/i.test(t)) continue;
      startLine = n;
    }
    pending = pending === '' ? line : `${pending}\n${line}`;
    if (pending.length > MAX_STATEMENT_CHARS)
      failAt(file, n, 1, 'the statement is longer than any statement of a dump (64 MB)');
    // HSQLDB writes a statement a line; mysqldump ends each with `;`, a CREATE TABLE after many lines.
    if (dialect === 'mysql' && !/;\s*$/.test(line)) continue;
    const text = pending;
    pending = '';
    yield parseStatement(text, file, startLine, dialect, wanted);
  }
  if (pending !== '') failAt(file, n, 1, `the file ends inside the statement begun on line ${startLine}`);
}

/** One statement's text, read; its errors placed by line and column from `firstLine`. */
function parseStatement(
  text: string,
  file: string,
  firstLine: number,
  dialect: DumpDialect,
  wanted: (table: string) => boolean,
): DumpStatement {
  const locate = (i: number) => {
    const before = text.slice(0, i);
    return { line: firstLine + (before.match(/\n/g)?.length ?? 0), column: i - before.lastIndexOf('\n') };
  };
  const place = (i: number, problem?: string): never => {
    const { line, column } = locate(i);
    const near = JSON.stringify(text.slice(i, i + 20));
    return failAt(
      file,
      line,
      column,
      problem ?? (i >= text.length ? 'the statement ends too soon' : `unexpected ${near}`),
    );
  };
  const create =
    /^\s*CREATE\s+(?:MEMORY\s+|CACHED\s+|TEMP\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?((?:[`"]?\w+[`"]?\.)?[`"]?[\w]+[`"]?)\s*\(/i.exec(
      text,
    );
  if (create !== null) {
    const open = create[0].length - 1;
    let depth = 0;
    let close = -1;
    for (let i = open; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) {
        close = i;
        break;
      }
    }
    if (close < 0) place(text.length);
    const table = unquoted((create[1] as string).split('.').pop() as string);
    const declared = createColumns(text.slice(open + 1, close));
    return { kind: 'create', table, columns: declared.map((c) => c.name), declared, line: firstLine };
  }
  const insert = /^\s*INSERT\s+INTO\s+((?:[`"]?\w+[`"]?\.)?[`"]?\w+[`"]?)\s*(?:\(([^)]*)\))?\s*VALUES\s*/i.exec(text);
  if (insert === null) return place(0);
  const table = unquoted((insert[1] as string).split('.').pop() as string);
  const columns = insert[2] === undefined ? null : insert[2].split(',').map(unquoted);
  // A table nobody reads is passed over unread: Restcomm's own test data has a row of
  // restcomm_clients with a stray `)` that HSQLDB's loader lets by.
  if (!wanted(table))
    return { kind: 'insert', table, columns, rows: [], line: firstLine, rowAt: () => file, skipped: true };
  const starts: number[] = [];
  const rows = readRows(text, insert[0].length, dialect, place, starts);
  const rowAt = (k: number) => {
    const { line, column } = locate(starts[k] ?? 0);
    return `${file}:${line}:${column}`;
  };
  return { kind: 'insert', table, columns, rows, line: firstLine, rowAt };
}
