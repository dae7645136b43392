import type { CallStatus } from './call-record';
import type { VerbatimAccount } from './rows';

/** What a fixture says about one account. */
export interface AccountSpec {
  friendlyName: string;
  calls: number;
  recordings: number;
  /** Seeded notifications; absent: one per CALLS_PER_NOTIFICATION calls (see notification.ts). */
  notifications?: number;
  token?: string;
  sid?: string;
  /** Calls arriving after the reference instant as the clock moves (none when absent). */
  traffic?: TrafficSpec;
  /**
   * The account whose generated records this one has (a sandbox forked from it): its records
   * are drawn from that sid's streams. Absent: its own.
   */
  dataOf?: string;
  /** Production's hazards on its live traffic (none when absent): see generators/hazards.ts. */
  hazards?: HazardSpec;
  /**
   * The sid of the account this one is a sub-account of (Restcomm's `parent_sid`): that account
   * and its ancestors read this one's lists. Absent: a top-level account.
   */
  parent?: string;
  /** Restcomm's role; absent: `Developer`, the role of the accounts that read calls. */
  role?: AccountRole;
  /** How calls created by `POST Calls.json` end (see created-call.ts); absent: as seeded calls do. */
  outcomes?: OutcomeSpec;
  /** Seeded faults on the delivery of their status callbacks; absent: none. */
  callbackFaults?: CallbackFaults;
  /** Status callbacks of its numbers, which its inbound traffic sends (see traffic-callbacks.ts); absent: none. */
  inboundCallbacks?: InboundCallbacks;
  /**
   * Production's own rows: the account's row and its lists' rows, which it holds instead of
   * generated records (its counts are 0). Such an account is as production stores it: its token
   * may be another's, its role any, its parent deeper than the third level or not in the data.
   */
  verbatim?: VerbatimAccount;
}

/**
 * The spec of an account of production's data: identity from its row, no generated records.
 * @example verbatimSpec(v).friendlyName // v.account.friendly_name
 */
export function verbatimSpec(v: VerbatimAccount): AccountSpec {
  const spec: AccountSpec = {
    friendlyName: v.account.friendly_name,
    calls: 0,
    recordings: 0,
    notifications: 0,
    sid: v.account.sid,
    token: v.account.auth_token,
    verbatim: v,
  };
  if (v.account.parent_sid !== null) spec.parent = v.account.parent_sid;
  return spec;
}

/** The role an account has: its row's, as production stores it, or the fixture's (Developer when absent). */
export function roleOf(spec: AccountSpec): string {
  return spec.verbatim?.account.role ?? spec.role ?? 'Developer';
}

/** The status an account has: its row's (active, suspended, closed, inactive, uninitialized); generated ones are active. */
export function statusOf(spec: AccountSpec): string {
  return spec.verbatim?.account.status ?? 'active';
}

/**
 * The roles of Restcomm's default configuration that matter here: an `Administrator` also reads
 * its sub-accounts' account resources; a `Developer` reads only its own.
 */
export const ACCOUNT_ROLES = ['Developer', 'Administrator'] as const;

export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** Restcomm creates no sub-account below the third level (`AccountsEndpoint.putAccount`). */
export const MAX_ACCOUNT_LEVELS = 3;

/** Live traffic of an account: calls arriving after the reference instant, as the clock moves. */
export interface TrafficSpec {
  /** Mean arrivals an hour, from over 0 to 3600 (one a second). */
  callsPerHour: number;
}

/**
 * Production's hazards an account may have (off unless asked for): the ways a cluster of
 * Restcomm nodes writes its call records that break a sync job which trusts date order.
 */
export interface HazardSpec {
  /**
   * Most seconds a call's row takes to become visible after its date_created: each arrival of
   * live traffic draws its own delay, uniform in [0, this) (0: rows are visible as written).
   */
  commitLagS: number;
  /** The nodes that write the account's calls, each with a clock of its own; null: one, on time. */
  instances: { count: number; maxSkewS: number } | null;
}

/**
 * How an account's created calls end: weights by final status (any subset; absent: production's
 * mix, the seeded calls' own), and a fixed outcome for some `To` numbers ("this number is always
 * busy"), which wins.
 * @example { weights: { completed: 0.8, busy: 0.2 }, byTo: { '+15550001111': 'no-answer' } }
 */
export interface OutcomeSpec {
  weights?: Partial<Record<CallStatus, number>>;
  byTo?: Readonly<Record<string, CallStatus>>;
}

/**
 * Seeded faults on an account's callback deliveries, each a probability per callback: the
 * network between production and a receiver, which a client must survive. `delay` sends it up to
 * `max_ms` later on the clock (its Timestamp unchanged); `reorder` sends it right after the next
 * state of its call; `duplicate` sends it twice; `drop` never sends it.
 * @example { drop: 0.05, duplicate: 0.05, reorder: 0.05, delay: { probability: 0.2, max_ms: 30000 } }
 */
export interface CallbackFaults {
  drop?: number;
  duplicate?: number;
  reorder?: number;
  delay?: { probability: number; max_ms: number };
}

/** Where a number's status callbacks go: an IncomingPhoneNumber's StatusCallback and its method. */
export interface NumberCallback {
  url: string;
  method: string;
}

/**
 * An account's status callbacks for the calls its numbers take: one for every number, and some
 * numbers' own, which win.
 * @example { all: { url: 'http://127.0.0.1:9000/in', method: 'POST' }, byNumber: { '+15550001111': { url: '…', method: 'GET' } } }
 */
export interface InboundCallbacks {
  all?: NumberCallback;
  byNumber?: Readonly<Record<string, NumberCallback>>;
}
