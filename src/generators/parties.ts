import { personName, sipUser } from '../random/names';
import type { Stream, StreamFamily } from '../random/stream';
import { Weights } from '../random/weights';
import { collationKey } from './collation';

/**
 * The other parties of an account's calls: a seeded pool of numbers and SIP users that the
 * account calls and is called from, each with the name its calls show. A real account repeats
 * numbers (customers call back, agents dial the same suppliers), so the pool is finite, and a
 * few regulars take a good share of the calls. Being finite is also what makes a sort by From or
 * To of ten million calls cheap: it counts pool ranks instead of comparing strings.
 *
 * The pool's size does not depend on the account's call count, so growing an account changes no
 * call; entries are drawn when first read, each from its own stream.
 */
export const POOL_SIZE = 8192;
/** The first REGULARS entries are an account's regular contacts: they take REGULAR_SHARE of the picks. */
const REGULARS = 64;
const REGULAR_SHARE = 0.3;
/** Inbound calls with a withheld number: never dialled, so never outbound. */
const ANONYMOUS_SHARE = 0.05;
/** The party of a call whose caller withheld the number: its from and caller name read `Anonymous`. */
export const ANONYMOUS = -1;
export const ANONYMOUS_TEXT = 'Anonymous';

const PARTY_KINDS = new Weights([
  ['us', 55],
  ['intl', 10],
  ['digits', 20],
  ['sip', 15],
] as const);
const COUNTRY_CODES = ['44', '49', '33', '34', '39', '55', '61', '81', '91'] as const;

/**
 * The other party of a call from one uniform draw `x`: an inbound call is withheld
 * (`ANONYMOUS`) ANONYMOUS_SHARE of the time; otherwise a regular REGULAR_SHARE of the time,
 * else any entry of the pool, uniformly.
 * @example partyIndex(0.01, true) // -1 (Anonymous)
 */
export function partyIndex(x: number, inbound: boolean): number {
  let y = x;
  if (inbound) {
    if (x < ANONYMOUS_SHARE) return ANONYMOUS;
    y = (x - ANONYMOUS_SHARE) / (1 - ANONYMOUS_SHARE);
  }
  return y < REGULAR_SHARE
    ? Math.floor((y / REGULAR_SHARE) * REGULARS)
    : Math.floor(((y - REGULAR_SHARE) / (1 - REGULAR_SHARE)) * POOL_SIZE);
}

/** A party's address: an E.164 number, bare digits, or a SIP user name. */
function drawAddress(s: Stream): string {
  switch (PARTY_KINDS.values[PARTY_KINDS.index(s.float())]) {
    case 'us':
      return `+1${s.int(2, 9)}${s.digits(9)}`;
    case 'intl':
      return `+${s.pick(COUNTRY_CODES)}${s.digits(s.int(9, 10))}`;
    case 'digits':
      return `1${s.int(2, 9)}${s.digits(9)}`;
    default:
      return sipUser(s);
  }
}

/** Ranks of every party an account's calls show, under production's collation (see `PartyPool.ranks`). */
export interface PartyRanks {
  /** Rank of pool entry k. */
  readonly pool: Uint16Array;
  /** Rank of the account's endpoint e. */
  readonly endpoints: Uint16Array;
  readonly anonymous: number;
  /** A party text of each rank (the first in code-unit order of those equal under the collation): `texts[rank]`. */
  readonly texts: readonly string[];
}

/** One account's pool of other parties (see POOL_SIZE). */
export class PartyPool {
  private readonly addresses: (string | undefined)[] = [];
  private readonly names: string[] = [];
  private ranked: PartyRanks | null = null;

  /**
   * @param family the entries' streams: entry k draws from `family.at(k)` alone
   * @param endpoints the account's own addresses, ranked among the entries (see `ranks`)
   */
  constructor(
    private readonly family: StreamFamily,
    private readonly endpoints: readonly string[],
  ) {}

  private draw(k: number): string {
    const s = this.family.at(k);
    const address = drawAddress(s);
    this.addresses[k] = address;
    this.names[k] = personName(s);
    return address;
  }

  /** Entry k's address (k < POOL_SIZE). @example pool.address(3) // '+15126002188' */
  address(k: number): string {
    return this.addresses[k] ?? this.draw(k);
  }

  /** The caller name entry k's calls show. @example pool.name(3) // 'Mara Kuhlman' */
  name(k: number): string {
    if (this.addresses[k] === undefined) this.draw(k);
    return this.names[k] as string;
  }

  /**
   * Every entry's rank among the pool, the endpoints' addresses and `Anonymous` together, in
   * code-unit order (production compares the stored text): comparing ranks compares the
   * strings. Drawn and sorted once per account, on the first sort or filter that needs it.
   */
  ranks(): PartyRanks {
    if (this.ranked !== null) return this.ranked;
    const endpoints = this.endpoints;
    const all: string[] = [];
    for (let k = 0; k < POOL_SIZE; k++) all.push(this.address(k));
    // Ranked under production's collation: texts equal to its database share a rank, and each
    // rank's text is the first of them in code-unit order.
    const firstOfKey = new Map<string, string>();
    for (const t of Array.from(new Set([...all, ...endpoints, ANONYMOUS_TEXT])).sort()) {
      if (!firstOfKey.has(collationKey(t))) firstOfKey.set(collationKey(t), t);
    }
    const keyRank = new Map<string, number>();
    const texts: string[] = [];
    for (const key of [...firstOfKey.keys()].sort()) {
      keyRank.set(key, texts.length);
      texts.push(firstOfKey.get(key) as string);
    }
    const rank = (t: string) => keyRank.get(collationKey(t)) as number;
    this.ranked = {
      pool: Uint16Array.from(all, rank),
      endpoints: Uint16Array.from(endpoints, rank),
      anonymous: rank(ANONYMOUS_TEXT),
      texts,
    };
    return this.ranked;
  }
}
