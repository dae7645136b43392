import request from 'supertest';
import { decode } from 'wav-decoder';
import { messages } from '../../src/errors';
import { acceptPath } from '../../src/front-door';
import { allItems, authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

type Item = Record<string, any>;
const { app, world } = makeEmulator();
const big = byCalls(world, 448);
const other = byCalls(world, 50);
const base = (sid: string) => `/call/2012-04-24/Accounts/${sid}`;

describe('single records', () => {
  test('a call, in the list item shape; unknown → 404; another account → 403; HEAD', async () => {
    const page = await authGet(app, `${callsPath(big.sid)}?PageSize=3`, big.token);
    const call = page.body.calls[2] as Item;
    const res = await authGet(app, `${base(big.sid)}/Calls/${call.sid}.json`, big.token);
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(call));
    const unknown = `ID${'0'.repeat(32)}-CA${'0'.repeat(32)}`;
    const missing = await authGet(app, `${base(big.sid)}/Calls/${unknown}.json`, big.token);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: messages.noCall(big.sid, unknown) });
    expect((await authGet(app, `${base(other.sid)}/Calls/${call.sid}.json`, big.token)).status).toBe(403);
    // Another account's call under one's own account path: production's secure() checks the
    // call's own account, and answers 403, not 404.
    const foreign = await authGet(app, `${base(other.sid)}/Calls/${call.sid}.json`, other.token);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ message: messages.forbiddenRecord(call.sid) });
    for (const sub of ['Recordings', 'Notifications']) {
      expect((await authGet(app, `${base(other.sid)}/Calls/${call.sid}/${sub}.json`, other.token)).status).toBe(403);
    }
    expect((await request(app).get(`${base(big.sid)}/Calls/${call.sid}.json`)).status).toBe(401);
    const head = await request(app)
      .head(`${base(big.sid)}/Calls/${call.sid}.json`)
      .auth(big.token, '');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(res.text));
  });

  test('a recording, in the list item shape', async () => {
    const rec = (await authGet(app, `${recordingsPath(big.sid)}?PageSize=1`, big.token)).body.recordings[0] as Item;
    const res = await authGet(app, `${base(big.sid)}/Recordings/${rec.sid}.json`, big.token);
    expect(res.text).toBe(JSON.stringify(rec));
    expect((await authGet(app, `${base(big.sid)}/Recordings/RE${'a'.repeat(32)}.json`, big.token)).status).toBe(404);
    expect((await authGet(app, `${base(other.sid)}/Recordings/${rec.sid}.json`, big.token)).status).toBe(403);
    const foreign = await authGet(app, `${base(other.sid)}/Recordings/${rec.sid}.json`, other.token);
    expect([foreign.status, foreign.body]).toEqual([403, { message: messages.forbiddenRecord(rec.sid) }]);
  });

  test('a written record is found, a deleted one is not', async () => {
    const em = makeEmulator();
    const a = byCalls(em.world, 50);
    const [added] = (await request(em.app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send([{}]))
      .body as Item[];
    expect((await authGet(em.app, `${base(a.sid)}/Calls/${added!.sid}.json`, a.token)).body.sid).toBe(added!.sid);
    const seeded = a.store.calls.get(4).sid;
    await request(em.app).delete(`/__admin/accounts/${a.sid}/calls/${seeded}`);
    expect((await authGet(em.app, `${base(a.sid)}/Calls/${seeded}.json`, a.token)).status).toBe(404);
  });
});

describe("a call's sub-lists", () => {
  test('recordings: a bare array, oldest first, each as in the list', async () => {
    const recs = await allItems(app, recordingsPath(big.sid), big.token, 'recordings');
    const counts = new Map<string, Item[]>();
    for (const r of recs) counts.set(r.call_sid as string, [...(counts.get(r.call_sid as string) ?? []), r]);
    const [callSid, onIt] = [...counts].find(([, list]) => list.length > 1)!;
    const res = await authGet(app, `${base(big.sid)}/Calls/${callSid}/Recordings.json`, big.token);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toEqual([...onIt].reverse());
    const quiet = (await authGet(app, callsPath(big.sid), big.token)).body.calls.find(
      (c: Item) => !counts.has(c.sid),
    ) as Item;
    expect((await authGet(app, `${base(big.sid)}/Calls/${quiet.sid}/Recordings.json`, big.token)).body).toEqual([]);
  });

  test('notifications: an empty paged envelope', async () => {
    const call = (await authGet(app, `${callsPath(big.sid)}?PageSize=1`, big.token)).body.calls[0] as Item;
    const res = await authGet(app, `${base(big.sid)}/Calls/${call.sid}/Notifications.json`, big.token);
    expect(res.body).toEqual({
      page: 0,
      num_pages: 0,
      page_size: 50,
      total: 0,
      start: '0',
      end: '0',
      uri: `/2012-04-24/Accounts/${big.sid}/Calls/${call.sid}/Notifications`,
      first_page_uri: `/2012-04-24/Accounts/${big.sid}/Calls/${call.sid}/Notifications?Page=0&PageSize=50`,
      previous_page_uri: 'null',
      next_page_uri: 'null',
      last_page_uri: `/2012-04-24/Accounts/${big.sid}/Calls/${call.sid}/Notifications?Page=0&PageSize=50`,
      notifications: [],
    });
    expect((await authGet(app, `${base(big.sid)}/Calls/${call.sid}/Notifications.json?Page=1`, big.token)).status).toBe(
      400,
    );
  });
});

describe('paths as printed', () => {
  test('every uri and subresource_uri of a page answers 200 once /call is added', async () => {
    const page = (await authGet(app, `${callsPath(big.sid)}?PageSize=20`, big.token)).body;
    const recPage = (await authGet(app, `${recordingsPath(big.sid)}?PageSize=20`, big.token)).body;
    const uris = [
      ...page.calls.flatMap((c: Item) => [c.uri, c.subresource_uris.notifications, c.subresource_uris.recordings]),
      ...recPage.recordings.map((r: Item) => r.uri),
    ] as string[];
    expect(uris.length).toBe(80);
    for (const uri of uris) {
      const res = await authGet(app, `/call${uri}`, big.token);
      expect([uri, res.status]).toEqual([uri, 200]);
    }
    for (const r of recPage.recordings as Item[]) {
      const wav = await request(app).head(new URL(r.file_uri).pathname);
      expect(wav.status).toBe(200);
    }
  });

  test.each([
    [
      '/2012-04-24/Accounts/AC1/Calls',
      'the /call prefix and the .json suffix',
      '/call/2012-04-24/Accounts/AC1/Calls.json',
    ],
    [
      '/2012-04-24/Accounts/AC1/Calls/ID1-CA2.json',
      'the /call prefix',
      '/call/2012-04-24/Accounts/AC1/Calls/ID1-CA2.json',
    ],
    [
      '/2012-04-24/Accounts/AC1/Calls?Page=1&PageSize=50',
      'the /call prefix and the .json suffix',
      '/call/2012-04-24/Accounts/AC1/Calls.json',
    ],
  ])('%s as printed → 404 saying it lacks %s', async (path, lacks, instead) => {
    const res = await authGet(app, path, big.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: messages.notFoundPrinted('GET', path.split('?')[0]!, lacks, instead) });
  });

  test("the recordings list's links carry /call already: added again, the 404 says so", async () => {
    const page = await authGet(app, `${recordingsPath(big.sid)}?PageSize=5`, big.token);
    const link = page.body.next_page_uri as string;
    expect(link.startsWith('/call/2012-04-24/')).toBe(true);
    expect((await authGet(app, link, big.token)).status).toBe(200);
    const doubled = `/call${link}`;
    const res = await authGet(app, doubled, big.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: messages.notFoundDoubled('GET', doubled.split('?')[0]!, '/call', link.split('?')[0]!),
    });
  });
});

describe('.json on any path segment, as production strips it (AcceptFilter)', () => {
  test.each([
    ['/call/2012-04-24/Accounts/AC1/Calls.json/ID1-CA2', '/call/2012-04-24/Accounts/AC1/Calls/ID1-CA2.json'],
    ['/call/2012-04-24/Accounts/AC1/Calls.json/ID1-CA2.json', '/call/2012-04-24/Accounts/AC1/Calls/ID1-CA2.json'],
    ['/call/2012-04-24/Accounts.json/AC1/Calls', '/call/2012-04-24/Accounts/AC1/Calls.json'],
    ['/call/2012-04-24/Accounts/AC1/Calls/ID1-CA2.json', null],
    ['/call/2012-04-24/Accounts/AC1/Recordings/RE1.wav', null],
    ['/__admin/accounts.json/x', null],
    ['/call/2012-04-24/Accounts/AC1/Calls.json/', null],
  ])('%s → %s', (path, expected) => {
    expect(acceptPath(path)).toBe(expected);
  });

  test('…/Calls.json/{CallSid} (as two Restcomm SDKs build it) is the call; the journal keeps the path as sent', async () => {
    const em = makeEmulator();
    const a = byCalls(em.world, 448);
    const call = (await authGet(em.app, `${callsPath(a.sid)}?PageSize=1`, a.token)).body.calls[0] as Item;
    const canonical = await authGet(em.app, `${base(a.sid)}/Calls/${call.sid}.json`, a.token);
    const sdk = await authGet(em.app, `${base(a.sid)}/Calls.json/${call.sid}`, a.token);
    expect([sdk.status, sdk.text]).toEqual([200, canonical.text]);
    const subList = await authGet(em.app, `${base(a.sid)}/Calls.json/${call.sid}/Recordings`, a.token);
    expect(subList.status).toBe(200);
    expect(Array.isArray(subList.body)).toBe(true);
    const journal = await request(em.app).get(`/__admin/requests?account=${a.sid}&limit=1`);
    expect(journal.body.requests[0].path).toBe(`${base(a.sid)}/Calls.json/${call.sid}/Recordings`);
  });
});

describe('recording audio', () => {
  const rec = () => big.store.recordings.get(3);
  const wavPath = (sid: string) => `${base(big.sid)}/Recordings/${sid}.wav`;
  const fetchWav = (sid: string, range?: string) => {
    const req = request(app)
      .get(wavPath(sid))
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    return range === undefined ? req : req.set('Range', range);
  };

  test('a PCM WAVE file, 8 kHz mono 16-bit, as long as the duration to the sample; no auth', async () => {
    const r = rec();
    const res = await fetchWav(r.sid);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['accept-ranges']).toBe('bytes');
    const body = res.body as Buffer;
    expect(Number(res.headers['content-length'])).toBe(body.length);
    const audio = await decode(body);
    expect(audio.sampleRate).toBe(8000);
    expect(audio.channelData).toHaveLength(1);
    expect(audio.channelData[0]!.length).toBe(Math.round(r.duration * 8000));
    expect(body.readUInt16LE(34)).toBe(16);
    expect(body.length).toBe(44 + 2 * Math.round(r.duration * 8000));
    // Not silence, and the same bytes twice.
    expect(Math.max(...Array.from(audio.channelData[0]!.subarray(0, 2000)).map(Math.abs))).toBeGreaterThan(0.02);
    expect(((await fetchWav(r.sid)).body as Buffer).equals(body)).toBe(true);
  });

  test('Range slices agree with the full body, 206 with Content-Range; bad ranges 416', async () => {
    const r = rec();
    const full = (await fetchWav(r.sid)).body as Buffer;
    const size = full.length;
    for (const [range, start, end] of [
      ['bytes=0-43', 0, 43],
      ['bytes=41-100', 41, 100],
      ['bytes=1001-', 1001, size - 1],
      ['bytes=-7', size - 7, size - 1],
      [`bytes=${size - 3}-${size + 50}`, size - 3, size - 1],
    ] as const) {
      const res = await fetchWav(r.sid, range);
      expect(res.status).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect((res.body as Buffer).equals(full.subarray(start, end + 1))).toBe(true);
    }
    const bad = await fetchWav(r.sid, `bytes=${size}-`);
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${size}`);
    expect((await fetchWav(r.sid, 'bytes=0-1,5-9')).status).toBe(200);
  });

  test('HEAD gives the headers; an unknown recording or account is a 404; other methods 405', async () => {
    const r = rec();
    const head = await request(app).head(wavPath(r.sid));
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(44 + 2 * Math.round(r.duration * 8000));
    expect((await request(app).get(wavPath(`RE${'b'.repeat(32)}`))).status).toBe(404);
    expect(
      (await request(app).get(`/call/2012-04-24/Accounts/AC${'0'.repeat(32)}/Recordings/${r.sid}.wav`)).status,
    ).toBe(404);
    expect((await request(app).post(wavPath(r.sid))).status).toBe(405);
  });
});
