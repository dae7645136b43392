/**
 * Production's rows as its tables hold them (Restcomm's `mariadb/init.sql`), one member a column
 * under the column's own name, NULL as null. A DATETIME is milliseconds since the epoch, read as
 * UTC: a MariaDB dump's are whole seconds, an HSQLDB script's keep their fraction. These are
 * records no seed made: they load as given (input/restcomm-tables.ts checks them) and read back
 * through production's converters (format/rows.ts).
 */

/** A row of `restcomm_accounts`. */
export interface AccountRow {
  sid: string;
  date_created: number;
  date_updated: number;
  email_address: string;
  friendly_name: string;
  parent_sid: string | null;
  type: string;
  status: string;
  auth_token: string;
  role: string;
  uri: string;
  organization_sid: string | null;
}

/** A row of `restcomm_call_detail_records`. */
export interface CallRow {
  sid: string;
  parent_call_sid: string | null;
  date_created: number;
  date_updated: number;
  account_sid: string;
  sender: string;
  recipient: string;
  phone_number_sid: string | null;
  status: string;
  start_time: number | null;
  end_time: number | null;
  duration: number | null;
  price: string | null;
  direction: string;
  answered_by: string | null;
  api_version: string;
  forwarded_from: string | null;
  caller_name: string | null;
  uri: string;
  call_path: string | null;
  ring_duration: number | null;
  instanceid: string | null;
  conference_sid: string | null;
  muted: boolean | null;
  start_conference_on_enter: boolean | null;
  end_conference_on_exit: boolean | null;
  on_hold: boolean | null;
  ms_id: string | null;
}

/** A row of `restcomm_recordings`. */
export interface RecordingRow {
  sid: string;
  date_created: number;
  date_updated: number;
  account_sid: string;
  call_sid: string;
  duration: number;
  api_version: string;
  uri: string;
  file_uri: string | null;
  s3_uri: string | null;
}

/** A row of `restcomm_notifications`. */
export interface NotificationRow {
  sid: string;
  date_created: number;
  date_updated: number;
  account_sid: string;
  call_sid: string | null;
  api_version: string;
  log: number;
  error_code: number;
  more_info: string;
  message_text: string;
  message_date: number;
  request_url: string;
  request_method: string;
  request_variables: string;
  response_headers: string | null;
  response_body: string | null;
  uri: string;
}

/** The tables the emulator reads, each with its row type. */
export interface TableRows {
  restcomm_accounts: AccountRow;
  restcomm_call_detail_records: CallRow;
  restcomm_recordings: RecordingRow;
  restcomm_notifications: NotificationRow;
}

export type TableName = keyof TableRows;

/**
 * The database rows were held in: production's MariaDB, or HSQLDB (Restcomm's test datasets and
 * embedded deployments), which loads a script without checking a VARCHAR's length.
 */
export type RowDatabase = 'mariadb' | 'hsqldb';

/** One account of production's data: its row and the rows of its lists, each list by sid ascending. */
export interface VerbatimAccount {
  /** Where its rows were held: what a column may hold follows it. */
  database: RowDatabase;
  account: AccountRow;
  calls: readonly CallRow[];
  recordings: readonly RecordingRow[];
  notifications: readonly NotificationRow[];
}

/**
 * The integer production sorts a price by: MariaDB's `cast(price as unsigned)` reads the
 * leading integer of the text (`"0.90"` is 0, `"abc"` 0) and wraps a negative one past 2^64;
 * NULL sorts first ascending, as MariaDB puts NULLs.
 * @example priceKey('12.50') // 12
 * @example priceKey(null) // -Infinity
 */
export function priceKey(price: string | null): number {
  if (price === null) return Number.NEGATIVE_INFINITY;
  const m = /^\s*([+-]?)(\d+)/.exec(price);
  if (m === null) return 0;
  const n = Number(m[2]);
  return m[1] === '-' && n !== 0 ? 2 ** 64 - n : n;
}
