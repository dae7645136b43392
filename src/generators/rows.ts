/**
 * Production's rows as its tables hold them (Restcomm's `mariadb/init.sql`), one member a column
 * under the column's own name, NULL as null. A list's NOT NULL columns but its sid, account and
 * creation may still be NULL: HSQLDB loads a script without checking them, and Restcomm's own
 * test data has such rows. A DATETIME is milliseconds since the epoch, read as
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
  date_updated: number | null;
  account_sid: string;
  sender: string | null;
  recipient: string | null;
  phone_number_sid: string | null;
  status: string | null;
  start_time: number | null;
  end_time: number | null;
  duration: number | null;
  price: string | null;
  direction: string | null;
  answered_by: string | null;
  api_version: string | null;
  forwarded_from: string | null;
  caller_name: string | null;
  uri: string | null;
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
  date_updated: number | null;
  account_sid: string;
  call_sid: string | null;
  duration: number | null;
  api_version: string | null;
  uri: string | null;
  file_uri: string | null;
  s3_uri: string | null;
}

/** A row of `restcomm_notifications`. */
export interface NotificationRow {
  sid: string;
  date_created: number;
  date_updated: number | null;
  account_sid: string;
  call_sid: string | null;
  api_version: string | null;
  log: number | null;
  error_code: number | null;
  more_info: string | null;
  message_text: string | null;
  message_date: number | null;
  request_url: string | null;
  request_method: string | null;
  request_variables: string | null;
  response_headers: string | null;
  response_body: string | null;
  uri: string | null;
}

/** The tables the emulator reads, each with its row type. */
export interface TableRows {
  restcomm_accounts: AccountRow;
  restcomm_call_detail_records: CallRow;
  restcomm_recordings: RecordingRow;
  restcomm_notifications: NotificationRow;
}

export type TableName = keyof TableRows;

/** One account of production's data: its row and the rows of its lists, each list by sid ascending. */
export interface VerbatimAccount {
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
