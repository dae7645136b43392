import {
  allItems,
  authGet,
  byCalls,
  CALL_MEMBER_ORDER,
  callsPath,
  makeEmulator,
  PUBLIC_URL,
  recordingsPath,
} from '../support/app';

const { app, world } = makeEmulator();
const big = byCalls(world, 448);
const HEX32 = '[0-9a-f]{32}';
const RFC2822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [1-9][0-9]? (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Members production leaves out when null (its Gson has no serializeNulls). */
const OPTIONAL = ['end_time', 'duration', 'answered_by', 'ring_duration'];
/** Members of the converter the generated calls never have: no parent call, never forwarded. */
const NEVER = ['parent_call_sid', 'forwarded_from'];
const RECORDING_KEYS = [
  'sid',
  'date_created',
  'date_updated',
  'account_sid',
  'call_sid',
  'duration',
  'api_version',
  'uri',
  'file_uri',
];

describe('call items', () => {
  let calls: Record<string, any>[];
  beforeAll(async () => {
    calls = await allItems(app, callsPath(big.sid), big.token, 'calls');
  });

  test('all 448, keys in production order, no price member; only null members left out', () => {
    expect(calls).toHaveLength(448);
    for (const c of calls) {
      const keys = Object.keys(c);
      expect(keys).toEqual(CALL_MEMBER_ORDER.filter((k) => keys.includes(k)));
      expect(CALL_MEMBER_ORDER.filter((k) => !keys.includes(k) && !OPTIONAL.includes(k))).toEqual(NEVER);
    }
    // Each optional member is both present and absent somewhere in the list.
    for (const k of OPTIONAL) expect([calls.some((c) => k in c), calls.some((c) => !(k in c))]).toEqual([true, true]);
    expect(Object.keys(calls[0]!.subresource_uris)).toEqual(['notifications', 'recordings']);
  });

  test('field formats', () => {
    for (const c of calls) {
      expect(c.sid).toMatch(new RegExp(`^ID${HEX32}-CA${HEX32}$`));
      expect(c.InstanceId).toMatch(new RegExp(`^ID${HEX32}$`));
      expect(c.sid.startsWith(`${c.InstanceId}-`)).toBe(true);
      expect(c.account_sid).toBe(big.sid);
      expect(c.phone_number_sid).toMatch(new RegExp(`^PN${HEX32}$`));
      expect(c.date_created).toMatch(RFC2822);
      expect(c.date_created).toMatch(/\+0000$/);
      expect(c.date_updated).toMatch(/\+0000$/);
      expect(c.start_time).toMatch(ISO_MS);
      if (c.end_time !== undefined) expect(c.end_time).toMatch(ISO_MS);
      // start_time is the creation, or the answer of an answered call; duration runs from it.
      expect(Date.parse(c.start_time)).toBeGreaterThanOrEqual(Date.parse(c.date_created));
      if (c.status !== 'completed') expect(Date.parse(c.date_created)).toBe(Date.parse(c.start_time));
      if (c.end_time !== undefined) {
        expect(c.duration).toBe(Math.floor((Date.parse(c.end_time) - Date.parse(c.start_time)) / 1000));
      }
      if (c.ring_duration !== undefined && c.status === 'completed') {
        expect(Date.parse(c.start_time) - Date.parse(c.date_created)).toBe(c.ring_duration * 1000);
      }
      expect(c.price_unit).toBe('USD');
      expect(c.api_version).toBe('2012-04-24');
      const inbound = c.direction === 'inbound';
      expect(
        inbound
          ? ['completed', 'busy', 'failed', 'no-answer', 'canceled']
          : ['completed', 'BUSY', 'FAILED', 'NOT_FOUND', 'NO_ANSWER', 'canceled'],
      ).toContain(c.status);
      expect(['inbound', 'outbound-api', 'outbound-dial']).toContain(c.direction);
      expect(c.uri).toBe(`/2012-04-24/Accounts/${big.sid}/Calls/${c.sid}.json`);
      expect(c.subresource_uris).toEqual({
        notifications: `/2012-04-24/Accounts/${big.sid}/Calls/${c.sid}/Notifications.json`,
        recordings: `/2012-04-24/Accounts/${big.sid}/Calls/${c.sid}/Recordings.json`,
      });
    }
  });

  test('the default order is date_created descending', () => {
    for (let i = 1; i < calls.length; i++) {
      expect(Date.parse(calls[i - 1]!.date_created)).toBeGreaterThan(Date.parse(calls[i]!.date_created));
    }
  });

  test('sids are unique', () => {
    expect(new Set(calls.map((c) => c.sid)).size).toBe(448);
  });
});

describe('recording items', () => {
  let recordings: Record<string, any>[];
  let callsBySid: Map<string, Record<string, any>>;
  beforeAll(async () => {
    recordings = await allItems(app, recordingsPath(big.sid), big.token, 'recordings');
    callsBySid = new Map(
      (await allItems(app, callsPath(big.sid), big.token, 'calls')).map((c) => [c.sid as string, c]),
    );
  });

  test('all 160, keys in production order', () => {
    expect(recordings).toHaveLength(160);
    for (const r of recordings) expect(Object.keys(r)).toEqual(RECORDING_KEYS);
  });

  test('field formats', () => {
    for (const r of recordings) {
      expect(r.sid).toMatch(new RegExp(`^RE${HEX32}$`));
      expect(r.date_created).toMatch(RFC2822);
      expect(r.date_updated).toBe(r.date_created);
      expect(r.account_sid).toBe(big.sid);
      expect(typeof r.duration).toBe('string');
      expect(r.duration).toMatch(/^\d+\.\d{1,5}$/);
      expect(r.api_version).toBe('2012-04-24');
      expect(r.uri).toBe(`/2012-04-24/Accounts/${big.sid}/Recordings/${r.sid}.json`);
      expect(r.file_uri).toBe(`${PUBLIC_URL}/call/2012-04-24/Accounts/${big.sid}/Recordings/${r.sid}.wav`);
    }
  });

  test('several UTC offsets occur, +0000 among them', () => {
    const offsets = new Set(recordings.map((r) => (r.date_created as string).slice(-5)));
    expect(offsets.has('+0000')).toBe(true);
    expect(offsets.size).toBeGreaterThan(2);
  });

  test('each recording lies inside a call of the same account', () => {
    for (const r of recordings) {
      const call = callsBySid.get(r.call_sid);
      expect(call).toBeDefined();
      const created = Date.parse(r.date_created);
      expect(created).toBeGreaterThan(Date.parse(call!.start_time));
      expect(created).toBeLessThanOrEqual(Date.parse(call!.end_time));
      expect(Number(r.duration)).toBeLessThanOrEqual(call!.duration);
    }
  });

  test('the default order is date_created descending, by instant', () => {
    for (let i = 1; i < recordings.length; i++) {
      expect(Date.parse(recordings[i - 1]!.date_created)).toBeGreaterThan(Date.parse(recordings[i]!.date_created));
    }
  });
});

describe('the 1-call account', () => {
  test('has its one recording on its one call', async () => {
    const one = byCalls(world, 1);
    const calls = await authGet(app, callsPath(one.sid), one.token);
    const recs = await authGet(app, recordingsPath(one.sid), one.token);
    expect(calls.body.calls).toHaveLength(1);
    expect(recs.body.recordings).toHaveLength(1);
    expect(recs.body.recordings[0].call_sid).toBe(calls.body.calls[0].sid);
  });
});
