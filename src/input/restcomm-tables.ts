import { problems, ValidationError } from '../errors';
import type { TableName, TableRows } from '../generators/rows';
import { asObject, checkKeys } from './fields';
import type { SqlValue } from './sql-dump';

/** A column's type as the emulator checks a value against it. */
type ColumnType = 'varchar' | 'text' | 'int' | 'tinyint' | 'smallint' | 'bool' | 'double' | 'datetime';

/** One column of production's schema. */
export interface ColumnDef {
  name: string;
  type: ColumnType;
  /** VARCHAR's length, in characters. */
  max?: number | undefined;
  notNull: boolean;
}

/**
 * Production's four tables as `mariadb/init.sql` declares them (Restcomm c67f142339), written
 * as that file writes them so that the two can be compared by eye.
 */
const DECLARED: Readonly<Record<TableName, string>> = {
  restcomm_accounts:
    'sid VARCHAR(34) NOT NULL, date_created DATETIME NOT NULL, date_updated DATETIME NOT NULL, ' +
    'email_address MEDIUMTEXT NOT NULL, friendly_name VARCHAR(64) NOT NULL, parent_sid VARCHAR(34), ' +
    'type VARCHAR(8) NOT NULL, status VARCHAR(16) NOT NULL, auth_token VARCHAR(32) NOT NULL, ' +
    'role VARCHAR(64) NOT NULL, uri MEDIUMTEXT NOT NULL, organization_sid VARCHAR(34)',
  restcomm_call_detail_records:
    'sid VARCHAR(1000) NOT NULL, parent_call_sid VARCHAR(1000), date_created DATETIME NOT NULL, ' +
    'date_updated DATETIME NOT NULL, account_sid VARCHAR(34) NOT NULL, sender VARCHAR(255) NOT NULL, ' +
    'recipient VARCHAR(64) NOT NULL, phone_number_sid VARCHAR(34), status VARCHAR(20) NOT NULL, ' +
    'start_time DATETIME, end_time DATETIME, duration INT, price VARCHAR(8), direction VARCHAR(20) NOT NULL, ' +
    'answered_by VARCHAR(64), api_version VARCHAR(10) NOT NULL, forwarded_from VARCHAR(30), ' +
    'caller_name VARCHAR(50), uri MEDIUMTEXT NOT NULL, call_path VARCHAR(255), ring_duration INT, ' +
    'instanceid VARCHAR(255), conference_sid VARCHAR(34), muted BOOLEAN, start_conference_on_enter BOOLEAN, ' +
    'end_conference_on_exit BOOLEAN, on_hold BOOLEAN, ms_id VARCHAR(34)',
  restcomm_recordings:
    'sid VARCHAR(34) NOT NULL, date_created DATETIME NOT NULL, date_updated DATETIME NOT NULL, ' +
    'account_sid VARCHAR(34) NOT NULL, call_sid VARCHAR(1000) NOT NULL, duration DOUBLE NOT NULL, ' +
    'api_version VARCHAR(10) NOT NULL, uri MEDIUMTEXT NOT NULL, file_uri MEDIUMTEXT, s3_uri MEDIUMTEXT',
  restcomm_notifications:
    'sid VARCHAR(34) NOT NULL, date_created DATETIME NOT NULL, date_updated DATETIME NOT NULL, ' +
    'account_sid VARCHAR(34) NOT NULL, call_sid VARCHAR(1000), api_version VARCHAR(10) NOT NULL, ' +
    'log TINYINT NOT NULL, error_code SMALLINT NOT NULL, more_info MEDIUMTEXT NOT NULL, ' +
    'message_text MEDIUMTEXT NOT NULL, message_date DATETIME NOT NULL, request_url MEDIUMTEXT NOT NULL, ' +
    'request_method VARCHAR(4) NOT NULL, request_variables MEDIUMTEXT NOT NULL, response_headers MEDIUMTEXT, ' +
    'response_body MEDIUMTEXT, uri MEDIUMTEXT NOT NULL',
};

/** The emulator's type of each declared SQL type (VARCHAR with its length aside). */
const SQL_TYPES: Readonly<Record<string, ColumnType>> = {
  MEDIUMTEXT: 'text',
  DATETIME: 'datetime',
  INT: 'int',
  TINYINT: 'tinyint',
  SMALLINT: 'smallint',
  BOOLEAN: 'bool',
  DOUBLE: 'double',
};

function parseColumns(declared: string): ColumnDef[] {
  return declared.split(', ').map((d) => {
    const m = /^(\w+) (?:VARCHAR\((\d+)\)|(\w+))( NOT NULL)?$/.exec(d);
    const type = m?.[2] !== undefined ? 'varchar' : SQL_TYPES[m?.[3] ?? ''];
    if (m === null || type === undefined) throw new Error(`bad column declaration ${d}`);
    return {
      name: m[1] as string,
      type,
      max: m[2] === undefined ? undefined : Number(m[2]),
      notNull: m[4] !== undefined,
    };
  });
}

/** Production's tables, by name: their columns in init.sql's order. */
export const TABLES: { readonly [T in TableName]: readonly ColumnDef[] } = {
  restcomm_accounts: parseColumns(DECLARED.restcomm_accounts),
  restcomm_call_detail_records: parseColumns(DECLARED.restcomm_call_detail_records),
  restcomm_recordings: parseColumns(DECLARED.restcomm_recordings),
  restcomm_notifications: parseColumns(DECLARED.restcomm_notifications),
};

export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** Each table's row with every column NULL, in the schema's order: what a row is copied from. */
const BLANKS = Object.fromEntries(
  TABLE_NAMES.map((t) => [t, Object.fromEntries(TABLES[t].map((c) => [c.name, null]))]),
) as Readonly<Record<TableName, Readonly<Record<string, null>>>>;

/** Whether `name` is one of production's tables the emulator reads (a dump names them in any case). */
export function tableOf(name: string): TableName | undefined {
  const lower = name.toLowerCase();
  return (TABLE_NAMES as string[]).includes(lower) ? (lower as TableName) : undefined;
}

/** `Account.Status` and `Account.Type`: texts the accounts DAO reads back; any other throws there. */
export const ACCOUNT_STATUSES = ['active', 'closed', 'suspended', 'inactive', 'uninitialized'] as const;
const ACCOUNT_TYPES = ['Full', 'Trial'];
const INT_RANGES = { int: 2 ** 31, tinyint: 2 ** 7, smallint: 2 ** 15 } as const;

/**
 * A DATETIME as a dump writes it, `YYYY-MM-DD HH:MM:SS` with up to nine fractional digits, as
 * milliseconds since the epoch, read as UTC (production's JVM and database run in UTC, and the
 * same file must give the same bytes in any host zone). Digits past the millisecond go: a Java
 * `Date` holds no more. Undefined for anything else, a zero date included.
 * @example sqlDateTime('2013-08-23 14:30:07.820000000') // 1377268207820
 */
export function sqlDateTime(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(text);
  if (m === null) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = Number(`${m[7] ?? ''}000`.slice(0, 3));
  // A date that would roll over (30 February, hour 24) is not one a DATETIME holds.
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days || h > 23 || mi > 59 || s > 59) return undefined;
  if (y >= 100) return Date.UTC(y, mo - 1, d, h, mi, s, ms);
  // Date.UTC reads years 0-99 as 1900-1999: setUTCFullYear does not.
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d);
  return at.setUTCHours(h, mi, s, ms);
}

/**
 * A DATETIME as a dump and the emulator's own exports write it: the millisecond only when there
 * is one, so a MariaDB row's whole seconds stay whole.
 * @example sqlDateTimeText(1377268207820) // '2013-08-23 14:30:07.820'
 */
export function sqlDateTimeText(ms: number): string {
  const iso = new Date(ms).toISOString();
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  return ms % 1000 === 0 ? text : `${text}.${iso.slice(20, 23)}`;
}

/**
 * Columns whose texts repeat from row to row (an account, a status, a number, a node): one copy
 * of each text is kept, shared by the rows, as long as there are not too many.
 */
const REPEATING = new Set([
  'account_sid',
  'sender',
  'recipient',
  'phone_number_sid',
  'status',
  'price',
  'direction',
  'answered_by',
  'api_version',
  'forwarded_from',
  'caller_name',
  'instanceid',
  'conference_sid',
  'ms_id',
  'request_method',
]);
const DISTINCT_KEPT = 1 << 16;
const shared = new Map<string, string>();

/**
 * A text as a row keeps it: its own copy, not a slice of the statement it was read from (which
 * a slice would keep whole: a thousand rows' worth for each row), and one copy of a text the
 * column repeats. A 100,000-call dump took 290 MB of heap as slices, 110 MB so.
 */
function kept(column: string, text: string): string {
  if (REPEATING.has(column)) {
    const known = shared.get(text);
    if (known !== undefined) return known;
    const copy = ownCopy(text);
    if (shared.size < DISTINCT_KEPT) shared.set(copy, copy);
    return copy;
  }
  return ownCopy(text);
}

/** A copy of a text that holds on to no longer one (V8 makes a slice of 13 characters or more a view). */
const ownCopy = (text: string): string => (text.length < 13 ? text : `${text} `.slice(0, -1));

/** One value checked against its column: the value the row keeps, or a ValidationError at `at`. */
function columnValue(
  column: ColumnDef,
  notNull: boolean,
  max: number | undefined,
  value: SqlValue,
  at: string,
): string | number | boolean | null {
  // The place is put together only for a problem: a load reads millions of values.
  const fail = (problem: string): never => {
    throw new ValidationError(`${at}.${column.name}`, problem);
  };
  if (value === null) {
    if (notNull) fail(problems.rowNull);
    return null;
  }
  switch (column.type) {
    case 'varchar':
    case 'text': {
      // A dump quotes every text; a number here was typed by hand, and MariaDB stores its digits.
      if (typeof value === 'boolean') fail(problems.rowText(value));
      const text = typeof value === 'string' ? value : String(value);
      // A length in UTF-16 units is at least the characters': counted only when it may be over.
      if (max !== undefined && text.length > max && [...text].length > max) fail(problems.rowLength(max, text));
      return kept(column.name, text);
    }
    case 'int':
    case 'tinyint':
    case 'smallint': {
      const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      const range = INT_RANGES[column.type];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < -range || n >= range)
        fail(problems.rowInteger(column.type.toUpperCase(), -range, range - 1, value));
      return n as number;
    }
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 0 || value === 1) return value === 1;
      return fail(problems.rowBoolean(value));
    case 'double': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) fail(problems.rowDouble(value));
      return n as number;
    }
    case 'datetime': {
      const ms = typeof value === 'string' ? sqlDateTime(value) : undefined;
      if (ms === undefined) fail(problems.rowDateTime(value));
      return ms as number;
    }
  }
}

/**
 * How a row is checked. Types always: a text in an INT is no row any database held. Lengths and
 * NOT NULL against the columns as the source declares them (a dump's own CREATE TABLE), else as
 * production's schema does; not at all `asStored` (an HSQLDB script, which HSQLDB loads without
 * checking them: Restcomm's own test data has a NULL date_updated and a 14-character
 * request_method in a VARCHAR(4); a state export, whose rows were checked when they came in),
 * but for what the emulator cannot go without: a list row's sid, account and creation, and an
 * account's every column.
 */
export interface RowRules {
  /** A column the source lacks is NULL (a dump of an older schema); else a NOT NULL one must be given. */
  absentIsNull: boolean;
  asStored: boolean;
  /** What the source declares of its columns, by name; absent: production's schema. */
  declared?: ReadonlyMap<string, { max: number | undefined; notNull: boolean }>;
}

/** The columns a list's row cannot go without here: it is found, owned and ordered by them. */
const KEYS = ['sid', 'account_sid', 'date_created'];

/**
 * One row of `table`, every column read through `valueAt` (undefined: the source has no such
 * column, NULL) and checked as `rules` say. Beyond a column's rules, an account's status and type
 * must be in the enums production's accounts DAO reads them into (an account it could not read
 * could never log in). A sid is kept as stored, in any form: a Restcomm test dataset has call
 * sids such as `C001`. A problem is a ValidationError naming `at` and the column.
 * @example readRow('restcomm_recordings', (c) => row[c], 'dump.sql:12:8: restcomm_recordings', rules) // { sid: 'RE…', duration: 14.70275, … }
 */
export function readRow<T extends TableName>(
  table: T,
  valueAt: (column: string) => SqlValue | undefined,
  at: string,
  rules: RowRules,
): TableRows[T] {
  // A copy of the table's blank row, so that every row has one shape, its columns in order: a
  // row made a property at a time took several times the memory.
  const row: Record<string, unknown> = { ...BLANKS[table] };
  for (const column of TABLES[table]) {
    const given = valueAt(column.name);
    const declared = rules.declared?.get(column.name) ?? column;
    const needed = column.notNull && (table === 'restcomm_accounts' || KEYS.includes(column.name));
    const notNull = (needed || (!rules.asStored && declared.notNull)) && (given !== undefined || !rules.absentIsNull);
    const max = rules.asStored ? undefined : declared.max;
    row[column.name] = columnValue(column, notNull, max, given ?? null, at);
  }
  if (table === 'restcomm_accounts') {
    if (!(ACCOUNT_STATUSES as readonly unknown[]).includes(row['status']))
      throw new ValidationError(`${at}.status`, problems.oneOf(ACCOUNT_STATUSES, row['status']));
    if (!ACCOUNT_TYPES.includes(row['type'] as string))
      throw new ValidationError(`${at}.type`, problems.oneOf(ACCOUNT_TYPES, row['type']));
  }
  return row as unknown as TableRows[T];
}

/**
 * A row as JSON (fixtures, state exports, the admin API): its columns in the schema's order,
 * DATETIMEs as `sqlDateTimeText` writes them; `readRow` reads it back.
 * @example rowAsJson('restcomm_recordings', row) // { sid: 'RE…', date_created: '2016-01-05 08:51:07.955', … }
 */
export function rowAsJson<T extends TableName>(table: T, row: TableRows[T]): Record<string, SqlValue> {
  const out: Record<string, SqlValue> = {};
  const values = row as unknown as Record<string, SqlValue>;
  for (const column of TABLES[table]) {
    const v = values[column.name] ?? null;
    out[column.name] = column.type === 'datetime' && typeof v === 'number' ? sqlDateTimeText(v) : v;
  }
  return out;
}

/**
 * A row given as JSON (a fixture, a state, an admin body): an object of the table's columns,
 * every NOT NULL one present, values as a dump writes them (texts, numbers, booleans, null;
 * DATETIMEs as text), checked against production's schema unless `asStored` (see RowRules). An
 * unknown column is an error naming it.
 * @example readJsonRow('restcomm_recordings', { sid: 'RE…', … }, 'accounts[0].restcomm_recordings[3]')
 */
export function readJsonRow<T extends TableName>(table: T, raw: unknown, at: string, asStored: boolean): TableRows[T] {
  const body = asObject(raw, at);
  const names = TABLES[table].map((c) => c.name);
  checkKeys(body, at, names);
  return readRow(
    table,
    (column) => {
      const v = body[column];
      if (v !== undefined && v !== null && !['string', 'number', 'boolean'].includes(typeof v))
        throw new ValidationError(`${at}.${column}`, problems.rowValue(v));
      return v as SqlValue | undefined;
    },
    at,
    { absentIsNull: false, asStored },
  );
}
