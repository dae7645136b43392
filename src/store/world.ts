import {
  makeAccountProfile,
  makeWorldContext,
  type AccountProfile,
  type AccountSpec,
  type WorldContext,
} from '../generators/account';
import { CallTable } from './calls';
import { FixtureError } from './fixtures';
import { RecordingTable } from './recordings';

/** Everything the data is a pure function of. */
export interface WorldSpec {
  seed: string;
  /** The reference instant, milliseconds since the epoch. */
  clockMs: number;
  accounts: readonly AccountSpec[];
}

export interface AccountStore {
  profile: AccountProfile;
  calls: CallTable;
  recordings: RecordingTable;
}

function build(spec: WorldSpec): { context: WorldContext; accounts: AccountStore[] } {
  const context = makeWorldContext(spec.seed, spec.clockMs);
  const nameOrdinals = new Map<string, number>();
  const accounts = spec.accounts.map((a) => {
    const ordinal = nameOrdinals.get(a.friendlyName) ?? 0;
    nameOrdinals.set(a.friendlyName, ordinal + 1);
    const profile = makeAccountProfile(spec.seed, a, ordinal);
    return {
      profile,
      calls: new CallTable(context, profile, a.calls),
      recordings: new RecordingTable(context, profile, a.recordings),
    };
  });
  // A sid or token given in one account may equal one derived for another; say so, once, here.
  for (const key of ['sid', 'token'] as const) {
    const seen = new Map<string, number>();
    accounts.forEach((a, i) => {
      const earlier = seen.get(a.profile[key]);
      if (earlier !== undefined) {
        throw new FixtureError(`accounts[${i}].${key}: the same ${key} as accounts[${earlier}] under seed ${JSON.stringify(spec.seed)}`);
      }
      seen.set(a.profile[key], i);
    });
  }
  return { context, accounts };
}

/**
 * All accounts and their records. Records are made on read; the world keeps only identities,
 * counts and the sort orders built so far.
 */
export class World {
  private context!: WorldContext;
  private list: AccountStore[] = [];
  private bySid = new Map<string, AccountStore>();
  private byToken = new Map<string, AccountStore>();
  private stateVersion = 0;

  constructor(private readonly spec: WorldSpec) {
    this.reset();
  }

  get seed(): string {
    return this.spec.seed;
  }

  /** Changes whenever what the API shows may have changed: caches of rendered bytes compare it. */
  get version(): number {
    return this.stateVersion;
  }

  /** Back to the state built from the seed and fixtures; cached orders are dropped. */
  reset(): void {
    this.stateVersion++;
    const { context, accounts } = build(this.spec);
    this.context = context;
    this.list = accounts;
    this.bySid = new Map(accounts.map((a) => [a.profile.sid, a]));
    this.byToken = new Map(accounts.map((a) => [a.profile.token, a]));
  }

  accounts(): readonly AccountStore[] {
    return this.list;
  }

  account(sid: string): AccountStore | undefined {
    return this.bySid.get(sid);
  }

  accountByToken(token: string): AccountStore | undefined {
    return this.byToken.get(token);
  }

  get worldContext(): WorldContext {
    return this.context;
  }
}
