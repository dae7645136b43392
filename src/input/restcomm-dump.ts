import { problems, ValidationError } from '../errors';
import type {
  AccountRow,
  CallRow,
  NotificationRow,
  RecordingRow,
  TableName,
  VerbatimAccount,
} from '../generators/rows';
import { type RowRules, readRow, TABLE_NAMES, TABLES, tableOf } from './restcomm-tables';
import { type DeclaredColumn, type DumpDialect, dumpDialect, readDump, type SqlValue } from './sql-dump';

/**
 * What a dump held and what of it was read, for the person who loaded it: nothing is dropped
 * without being listed here.
 * @example { file: 'prod.sql', dialect: 'mysql', rows: { restcomm_call_detail_records: 502 }, skipped_tables: { restcomm_clients: 4 }, … }
 */
export interface DumpReport {
  file: string;
  dialect: DumpDialect;
  /** Rows read, by table. */
  rows: Partial<Record<TableName, number>>;
  /** Tables the emulator does not serve, with their INSERT statements (an HSQLDB script's: a row each), passed over unread. */
  skipped_tables: Record<string, number>;
  /** Columns of a read table that production's schema does not have, passed over. */
  skipped_columns: Partial<Record<TableName, string[]>>;
  /** Columns of production's schema the dump's table lacks (an older schema): read as NULL. */
  missing_columns: Partial<Record<TableName, string[]>>;
  /** Rows naming an account the dump holds no row of: no login could read them, so they are not served. */
  rows_without_account: Partial<Record<TableName, number>>;
}

/** A dump's accounts, each with its rows, and what was read. */
export interface ProductionData {
  accounts: VerbatimAccount[];
  report: DumpReport;
}

/** Rows one statement may hold, for packing a row's place (statement line, row) into one number. */
const ROWS_A_STATEMENT = 2 ** 20;

/** Lines a dump's dialect is told from. */
const HEAD_LINES = 20;

/** The lines, with the first HEAD_LINES read ahead to tell the dialect by. */
function withHead(lines: Iterable<string>): { head: string[]; all: Iterable<string> } {
  const it = lines[Symbol.iterator]();
  const head: string[] = [];
  for (let r = it.next(); head.length < HEAD_LINES; r = it.next()) {
    if (r.done === true) return { head, all: head };
    head.push(r.value);
    if (head.length === HEAD_LINES) break;
  }
  function* all() {
    yield* head;
    for (let r = it.next(); r.done !== true; r = it.next()) yield r.value;
  }
  return { head, all: all() };
}

const bySid = (a: { sid: string }, b: { sid: string }) => (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0);

/** The rows by sid: as they are when already so, as a mysqldump writes a table (by its primary key). */
function sortedBySid<T extends { sid: string }>(rows: T[]): T[] {
  for (let i = 1; i < rows.length; i++) if ((rows[i - 1] as T).sid > (rows[i] as T).sid) return rows.sort(bySid);
  return rows;
}

/**
 * Production's tables from a dump, a line at a time (`lines` may be a file of gigabytes: only
 * the rows kept are held): a `mysqldump` file or an HSQLDB script, told apart by its first
 * lines. Every row of `restcomm_accounts`, `restcomm_call_detail_records`, `restcomm_recordings`
 * and `restcomm_notifications` is checked against production's schema (see `readRow`); other
 * tables are passed over and listed. A problem anywhere is a ValidationError naming the file,
 * the line and the column, and nothing is returned: a load is all or nothing. The result is
 * the same whatever order the rows came in: accounts and rows by sid.
 * @example readProductionData(lines, 'restcomm_with_Data.script').report.rows // { restcomm_accounts: 6, restcomm_call_detail_records: 502, … }
 */
export function readProductionData(lines: Iterable<string>, file: string): ProductionData {
  const { head, all } = withHead(lines);
  const dialect = dumpDialect(head);
  const report: DumpReport = {
    file,
    dialect,
    rows: {},
    skipped_tables: {},
    skipped_columns: {},
    missing_columns: {},
    rows_without_account: {},
  };
  const declared = new Map<TableName, DeclaredColumn[]>();
  const rows = {
    restcomm_accounts: [],
    restcomm_call_detail_records: [],
    restcomm_recordings: [],
    restcomm_notifications: [],
  } as {
    [T in TableName]: { sid: string; account_sid?: string }[];
  };
  // Each sid's statement line and row in it, packed in one number.
  const seen = new Map<TableName, Map<string, number>>(TABLE_NAMES.map((t) => [t, new Map()]));
  for (const statement of readDump(all, file, dialect, (t) => tableOf(t) !== undefined)) {
    const table = tableOf(statement.table);
    if (statement.kind === 'create') {
      if (table !== undefined)
        declared.set(
          table,
          statement.declared.map((c) => ({ ...c, name: c.name.toLowerCase() })),
        );
      continue;
    }
    if (table === undefined) {
      report.skipped_tables[statement.table] = (report.skipped_tables[statement.table] ?? 0) + 1;
      continue;
    }
    const own = declared.get(table);
    const names =
      statement.columns?.map((c) => c.toLowerCase()) ?? own?.map((c) => c.name) ?? TABLES[table].map((c) => c.name);
    noteColumns(report, table, names);
    const index = new Map(names.map((n, i) => [n, i]));
    // HSQLDB loads a script as stored; a mysqldump's rows are held to the columns it declares.
    const rules: RowRules = {
      absentIsNull: true,
      asStored: dialect === 'hsqldb',
      ...(own === undefined ? {} : { declared: new Map(own.map((c) => [c.name, c])) }),
    };
    const sids = seen.get(table) as Map<string, number>;
    for (const [k, values] of statement.rows.entries()) {
      // Where the row begins is worked out only for a problem: counting lines for every row of
      // a statement of a thousand rows was most of a load.
      const fail = (err: ValidationError): never => {
        throw new ValidationError(`${statement.rowAt(k)}: ${err.path}`, err.problem);
      };
      // HSQLDB's own loader takes a script row short of its table's columns (Restcomm's test
      // data has such rows): the rest are NULL. A mysqldump row is always whole.
      if (values.length > names.length || (values.length < names.length && dialect === 'mysql'))
        fail(new ValidationError(table, problems.rowColumns(values.length, names.length)));
      let row: { sid: string };
      try {
        row = readRow(table, (column) => valueAt(values, index.get(column)), table, rules);
      } catch (err) {
        if (err instanceof ValidationError) fail(err);
        throw err;
      }
      const earlier = sids.get(row.sid);
      if (earlier !== undefined) {
        const where = `${file}:${Math.floor(earlier / ROWS_A_STATEMENT)}, row ${(earlier % ROWS_A_STATEMENT) + 1} of its statement`;
        fail(new ValidationError(`${table}.sid`, problems.rowTaken(table, row.sid, where)));
      }
      sids.set(row.sid, statement.line * ROWS_A_STATEMENT + k);
      rows[table].push(row);
    }
  }
  seen.clear();
  return { accounts: accountsOf(rows as never, report), report };
}

/** The value at `i` of a row, undefined where the dump has no such column. */
function valueAt(values: readonly SqlValue[], i: number | undefined): SqlValue | undefined {
  return i === undefined ? undefined : values[i];
}

/** Lists the columns of a table's insert that production lacks, and those production has that it lacks. */
function noteColumns(report: DumpReport, table: TableName, names: readonly string[]): void {
  const known = TABLES[table].map((c) => c.name);
  const extra = names.filter((n) => !known.includes(n));
  const missing = known.filter((n) => !names.includes(n));
  const add = (into: Partial<Record<TableName, string[]>>, list: string[]) => {
    if (list.length === 0) return;
    into[table] = [...new Set([...(into[table] ?? []), ...list])];
  };
  add(report.skipped_columns, extra);
  add(report.missing_columns, missing);
}

/** The rows grouped by account, each list by sid, accounts by sid; rows of absent accounts counted. */
function accountsOf(
  rows: {
    restcomm_accounts: AccountRow[];
    restcomm_call_detail_records: CallRow[];
    restcomm_recordings: RecordingRow[];
    restcomm_notifications: NotificationRow[];
  },
  report: DumpReport,
): VerbatimAccount[] {
  type Lists = { account: AccountRow; calls: CallRow[]; recordings: RecordingRow[]; notifications: NotificationRow[] };
  const accounts = new Map<string, Lists>();
  for (const account of sortedBySid(rows.restcomm_accounts))
    accounts.set(account.sid, { account, calls: [], recordings: [], notifications: [] });
  report.rows.restcomm_accounts = rows.restcomm_accounts.length;
  const place = (
    table: TableName,
    list: { sid: string; account_sid: string }[],
    put: (to: Lists, row: never) => void,
  ) => {
    report.rows[table] = list.length;
    let orphans = 0;
    for (const row of sortedBySid(list)) {
      const owner = accounts.get(row.account_sid);
      if (owner === undefined) orphans++;
      else put(owner, row as never);
    }
    if (orphans > 0) report.rows_without_account[table] = orphans;
  };
  place('restcomm_call_detail_records', rows.restcomm_call_detail_records, (to, row) => to.calls.push(row));
  place('restcomm_recordings', rows.restcomm_recordings, (to, row) => to.recordings.push(row));
  place('restcomm_notifications', rows.restcomm_notifications, (to, row) => to.notifications.push(row));
  return [...accounts.values()];
}
