import { personName, sipUser } from '../random/names';
import { SidCodec } from '../random/sid-codec';
import { Stream, StreamFamily } from '../random/stream';
import type { AccountSpec } from './account-spec';
import { LIST_STREAMS, type ListName, perList } from './list-names';
import { PartyPool } from './parties';

/** A number or client of the account: calls arrive at it or leave from it. */
export interface Endpoint {
  address: string;
  phoneNumberSid: string;
  /** The caller name its outbound calls show: the account's line, the same on every call. */
  callerName: string;
}

/**
 * Everything about an account that its records are derived from. None of it depends on the
 * call or recording counts, so growing an account changes no record.
 */
export interface AccountProfile {
  sid: string;
  token: string;
  friendlyName: string;
  /** What Restcomm also takes as the user name (`--dialect restcomm`). */
  email: string;
  /** The sid whose streams its records come from: its own, or its parent's for a sandbox. */
  dataOf: string;
  endpoints: readonly Endpoint[];
  /** The other parties its calls are from or to (see generators/parties.ts). */
  parties: PartyPool;
  /** Seconds: how far back the saturating part of the time line reaches (see timeline.ts). */
  timeScale: number;
  /** Per-record streams: record i of a kind draws from `streams[kind].at(i)` alone. */
  streams: {
    /** Each list's seeded records, by index. */
    seeded: { readonly [K in ListName]: StreamFamily };
    /** Defaults of each list's admin-inserted records, by insert number. */
    inserted: { readonly [K in ListName]: StreamFamily };
    recordingBlock: StreamFamily;
    /** Live traffic, by arrival number (see generators/traffic.ts). */
    traffic: StreamFamily;
    trafficRecording: StreamFamily;
    /** Which arrivals of each block of live traffic are recorded, by block number. */
    trafficLayout: StreamFamily;
    /** The talk time of an arrival that is recorded, by arrival number. */
    trafficTalk: StreamFamily;
    /** Which node writes an arrival and how late its row commits, by arrival number. */
    hazards: StreamFamily;
    /** The entries of the account's pool of other parties, by pool index. */
    parties: StreamFamily;
  };
  /** Seeded sids are made from indexes and read back (see SidCodec). */
  sids: {
    seeded: { readonly [K in ListName]: SidCodec };
    traffic: SidCodec;
    trafficRecording: SidCodec;
  };
}

/** World-wide facts shared by every account. */
export interface WorldContext {
  seed: string;
  /** The reference instant, whole seconds since the epoch: seeded records lie before it. */
  clockSec: number;
  /** The reference instant as given, milliseconds: what a state export names as `clock`. */
  clockMs: number;
  /**
   * The world's clock now, milliseconds: the reference instant until it is moved (see
   * World.setClock). Seeded records never read it; inserts with no dates arrive at it.
   */
  nowMs: number;
  /** Restcomm stamps each call with the id of the cluster node that handled it. */
  instanceIds: readonly string[];
}

export function makeWorldContext(seed: string, clockMs: number): WorldContext {
  const s = Stream.of([seed, 'instances']);
  const count = s.int(2, 3);
  const instanceIds: string[] = [];
  for (let i = 0; i < count; i++) instanceIds.push(`ID${s.hex(32)}`);
  return { seed, clockSec: Math.floor(clockMs / 1000), clockMs, nowMs: clockMs, instanceIds };
}

/**
 * The account's sid, unless the fixture gives one. It is keyed by the friendly name and how many
 * earlier accounts share that name, so adding, removing or reordering other accounts leaves it
 * (and so every record of the account) unchanged.
 */
export function accountSid(seed: string, friendlyName: string, nameOrdinal: number): string {
  return `AC${Stream.of([seed, 'account', friendlyName, nameOrdinal]).hex(32)}`;
}

/**
 * An address made from the friendly name, unique by the sid's first hex digits, drawing nothing
 * from any stream, so no record changes.
 * @example accountEmail('Acme Support', 'AC3f9a1c…') // 'acme-support.3f9a1c@example.com'
 */
export function accountEmail(friendlyName: string, sid: string): string {
  const slug = friendlyName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug === '' ? 'account' : slug}.${sid.slice(2, 8).toLowerCase()}@example.com`;
}

export function makeAccountProfile(seed: string, spec: AccountSpec, nameOrdinal: number): AccountProfile {
  const sid = spec.sid ?? accountSid(seed, spec.friendlyName, nameOrdinal);
  const token = spec.token ?? Stream.of([seed, 'token', sid]).hex(32);
  // A fork draws everything from its parent's streams: the same records, its own sid and token.
  const data = spec.dataOf ?? sid;
  const s = Stream.of([seed, data, 'profile']);
  const endpoints: Endpoint[] = [];
  const count = s.int(2, 5);
  for (let i = 0; i < count; i++) {
    const kind =
      i === 0
        ? 'e164'
        : s.weighted([
            ['e164', 6],
            ['client', 2],
            ['digits', 1],
          ] as const);
    let address: string;
    if (kind === 'e164') address = `+1${s.int(2, 9)}${s.digits(9)}`;
    else if (kind === 'digits') address = `1${s.int(2, 9)}${s.digits(9)}`;
    else address = sipUser(s);
    endpoints.push({ address, phoneNumberSid: `PN${s.hex(32)}`, callerName: '' });
  }
  const timeScale = s.int(2_500_000, 4_500_000);
  for (const endpoint of endpoints) endpoint.callerName = personName(s);
  const streams = {
    seeded: perList((name) => new StreamFamily([seed, data, LIST_STREAMS[name]])),
    inserted: perList((name) => new StreamFamily([seed, data, `inserted-${LIST_STREAMS[name]}`])),
    recordingBlock: new StreamFamily([seed, data, 'recording-block']),
    traffic: new StreamFamily([seed, data, 'traffic']),
    trafficRecording: new StreamFamily([seed, data, 'traffic-recording']),
    trafficLayout: new StreamFamily([seed, data, 'traffic-layout']),
    trafficTalk: new StreamFamily([seed, data, 'traffic-talk']),
    hazards: new StreamFamily([seed, data, 'hazards']),
    parties: new StreamFamily([seed, data, 'parties']),
  };
  const sids = {
    seeded: perList((name) => new SidCodec([seed, data, `${LIST_STREAMS[name]}-sid`])),
    traffic: new SidCodec([seed, data, 'traffic-sid']),
    trafficRecording: new SidCodec([seed, data, 'traffic-recording-sid']),
  };
  // A sandbox of production's account has its own address, as any sandbox.
  const row = spec.verbatim?.account;
  const email = row !== undefined && row.sid === sid ? row.email_address : accountEmail(spec.friendlyName, sid);
  const parties = new PartyPool(
    streams.parties,
    endpoints.map((e) => e.address),
  );
  return {
    sid,
    token,
    friendlyName: spec.friendlyName,
    email,
    dataOf: data,
    endpoints,
    parties,
    timeScale,
    streams,
    sids,
  };
}

/**
 * The API key bound to an account, as Twilio's (`SK…:secret` logs in as it with `--dialect
 * twilio`): made from the seed and the account's sid alone, on its own stream, so a sandbox has
 * its own and nothing else moves.
 * @example apiKeyOf('callrec', 'AC1') // { sid: 'SK…', secret: '…' }
 */
export function apiKeyOf(seed: string, sid: string): { sid: string; secret: string } {
  const key = Stream.of([seed, 'api-key', sid]);
  return { sid: `SK${key.hex(32)}`, secret: key.hex(32) };
}
