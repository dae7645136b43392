import request from 'supertest';
import { configFromOptions } from '../../src/config';
import { problems } from '../../src/errors';
import { byCalls, makeEmulator } from '../support/app';

const START = '2025-06-01T12:00:00.000Z';
const post = (app: Parameters<typeof request>[0], body: unknown) =>
  request(app).post('/__admin/clock').type('json').send(JSON.stringify(body));

describe('the clock: /__admin/clock', () => {
  test('starts at --clock, and moves only when told', async () => {
    const { app } = makeEmulator();
    const res = await request(app).get('/__admin/clock');
    expect(res.body).toEqual({ now: START, start: START, advanced_ms: 0, deterministic: true, rate: null });
  });

  test.each([
    [{ advance: 'PT5M' }, '2025-06-01T12:05:00.000Z'],
    [{ advance: 300 }, '2025-06-01T12:05:00.000Z'],
    [{ advance: 0.25 }, '2025-06-01T12:00:00.250Z'],
    [{ advance: 'P1DT2H' }, '2025-06-02T14:00:00.000Z'],
    [{ to: '2025-06-01T14:00:00+02:00' }, START],
    [{ to: '2025-07-01T00:00:00Z' }, '2025-07-01T00:00:00.000Z'],
  ])('%j moves it to %s', async (body, now) => {
    const { app } = makeEmulator();
    const res = await post(app, body);
    expect(res.status).toBe(200);
    expect(res.body.now).toBe(now);
    expect(res.body.advanced_ms).toBe(Date.parse(now) - Date.parse(START));
    expect((await request(app).get('/__admin/health')).body).toMatchObject({ clock: now, clock_start: START });
  });

  test.each([
    [{}, 'body', problems.clockMove],
    [{ advance: 'PT1M', to: START }, 'body', problems.clockMove],
    [{ advance: 'P1M' }, 'body.advance', problems.clockAdvance],
    // Not a string: refused as it is, never turned into one (an object's own toString threw a 500).
    [{ to: { toString: {} } }, 'body.to', problems.instant({ toString: {} })],
    [{ to: 1748779200000 }, 'body.to', problems.instant(1748779200000)],
    [{ advance: -1 }, 'body.advance', problems.clockAdvance],
    [{ advance: '300' }, 'body.advance', problems.clockAdvance],
    [{ to: '2025-05-31T00:00:00Z' }, 'body.to', problems.clockBackwards(START)],
    [{ to: 'tomorrow' }, 'body.to', problems.instant('tomorrow')],
    [{ advance: 'P5000000D' }, 'body.advance', problems.clockRange],
    [{ at: START }, 'body', undefined],
  ])('%j is a 400 naming %s, and the clock stays', async (body, path, problem) => {
    const { app } = makeEmulator();
    const res = await post(app, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(path);
    if (problem !== undefined) expect(res.body.message).toContain(problem);
    expect((await request(app).get('/__admin/clock')).body.now).toBe(START);
  });

  test('never back: after a move, an instant before it is refused', async () => {
    const { app } = makeEmulator();
    await post(app, { advance: 'PT1H' });
    const res = await post(app, { to: '2025-06-01T12:30:00Z' });
    expect(res.body.message).toContain(problems.clockBackwards('2025-06-01T13:00:00.000Z'));
  });

  test("a reset returns it to its start; a seed starts it at the seed's clock", async () => {
    const { app } = makeEmulator();
    await post(app, { advance: 'PT1H' });
    await request(app).post('/__admin/reset').type('json');
    expect((await request(app).get('/__admin/clock')).body.now).toBe(START);
    await post(app, { advance: 'PT1H' });
    await request(app).post('/__admin/seed').type('json').send('{"seed":"other","clock":"2024-01-01T00:00:00Z"}');
    expect((await request(app).get('/__admin/clock')).body).toMatchObject({
      now: '2024-01-01T00:00:00.000Z',
      start: '2024-01-01T00:00:00.000Z',
    });
  });

  test('moving the clock changes no seeded record: every list answers the same bytes', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const page = () => request(app).get(`/call/2012-04-24/Accounts/${a.sid}/Calls.json?PageSize=448`).auth(a.token, '');
    const before = (await page()).text;
    await post(app, { advance: 'P30D' });
    expect((await page()).text).toBe(before);
  });

  test('an insert with no dates ended at the clock: busy, canceled and completed alike, never ahead of it', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const insert = async (status: string) =>
      (
        await request(app)
          .post(`/__admin/accounts/${a.sid}/calls`)
          .type('json')
          .send(JSON.stringify([{ status }]))
      ).body[0];
    for (const [clock, updated] of [
      ['2025-06-01T12:00:00.000Z', 'Sun, 1 Jun 2025 12:00:00 +0000'],
      ['2025-06-01T13:00:00.000Z', 'Sun, 1 Jun 2025 13:00:00 +0000'],
    ]) {
      for (const status of ['busy', 'canceled', 'completed']) {
        const call = await insert(status);
        expect([call.status.toLowerCase(), call.date_updated]).toEqual([status, updated]);
        if (status !== 'busy') expect(call.end_time).toBe(clock);
        expect(Date.parse(call.start_time)).toBeLessThanOrEqual(Date.parse(clock as string));
      }
      await post(app, { advance: 'PT1H' });
    }
  });

  test('1 h twice gives the same bytes as 2 h at once: state, hash and lists', async () => {
    const run = async (steps: string[]) => {
      const em = makeEmulator();
      const a = byCalls(em.world, 50);
      for (const step of steps) await post(em.app, { advance: step });
      await request(em.app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send('[{},{"duration":60}]');
      const list = await request(em.app)
        .get(`/call/2012-04-24/Accounts/${a.sid}/Calls.json?PageSize=5`)
        .auth(a.token, '');
      const hash = (await request(em.app).get('/__admin/state/hash')).body.hash as string;
      const state = (await request(em.app).get('/__admin/state')).text;
      return { list: list.text, hash, state };
    };
    const twice = await run(['PT1H', 'PT1H']);
    expect(await run(['PT2H'])).toEqual(twice);
    expect(await run(['PT1H', 'PT59M', 'PT60S'])).toEqual(twice);
    expect(twice.list).toContain('Sun, 1 Jun 2025 14:00:00 +0000');
  });

  test('the state export carries the clock once moved, and an import restores it', async () => {
    const one = makeEmulator();
    const unmoved = JSON.parse((await request(one.app).get('/__admin/state')).text);
    expect(unmoved.now).toBeUndefined();
    await post(one.app, { advance: 'PT90M' });
    const moved = (await request(one.app).get('/__admin/state')).text;
    expect(JSON.parse(moved).now).toBe('2025-06-01T13:30:00.000Z');
    const two = makeEmulator();
    expect((await request(two.app).put('/__admin/state').type('json').send(moved)).status).toBe(200);
    expect((await request(two.app).get('/__admin/clock')).body.now).toBe('2025-06-01T13:30:00.000Z');
    const hash = async (a: typeof one) => (await request(a.app).get('/__admin/state/hash')).body.hash;
    expect(await hash(two)).toBe(await hash(one));
    const back = JSON.parse(moved);
    back.now = '2025-05-01T00:00:00Z';
    const refused = await request(two.app).put('/__admin/state').type('json').send(JSON.stringify(back));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('state.now');
  });
});

describe('--clock-rate: the clock follows a wall clock (opt-in, not deterministic)', () => {
  const start = Date.parse(START);

  test('it moves with the wall clock at the rate, in whole seconds, and says it is not deterministic', async () => {
    const em = makeEmulator();
    let wall = 1_000_000;
    em.world.followWall(60, () => wall);
    wall += 1500; // 1.5 s of wall time at 60x: 90 s
    const res = await request(em.app).get('/__admin/clock');
    expect(res.body).toEqual({
      now: new Date(start + 90_000).toISOString(),
      start: START,
      advanced_ms: 90_000,
      deterministic: false,
      rate: 60,
    });
    expect((await request(em.app).get('/__admin/health')).body.clock_rate).toBe(60);
  });

  test('a move, and a reset, re-anchor it: wall time counts on from there', async () => {
    const em = makeEmulator();
    let wall = 0;
    em.world.followWall(2, () => wall);
    await post(em.app, { advance: 'PT1H' });
    wall += 10_000;
    expect((await request(em.app).get('/__admin/clock')).body.advanced_ms).toBe(3_600_000 + 20_000);
    await request(em.app).post('/__admin/reset').type('json');
    expect((await request(em.app).get('/__admin/clock')).body.now).toBe(START);
    wall += 1000;
    expect((await request(em.app).get('/__admin/clock')).body.advanced_ms).toBe(2000);
  });

  test('a bad rate is refused at start-up', () => {
    expect(() => configFromOptions({ clockRate: 0 })).toThrow(problems.clockRate('0'));
  });
});

describe('inserts with a lifecycle', () => {
  const setupLive = () => {
    const em = makeEmulator();
    const a = byCalls(em.world, 50);
    const insert = (body: unknown) =>
      request(em.app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send(JSON.stringify(body));
    const get = (sid: string) =>
      request(em.app).get(`/call/2012-04-24/Accounts/${a.sid}/Calls/${sid}.json`).auth(a.token, '');
    return { ...em, a, insert, get };
  };

  test.each([
    [
      'in-progress',
      'inbound',
      'in-progress',
      { status: 'completed', end_time: '2025-06-01T12:10:00.000Z', duration: 600 },
    ],
    [
      'in-progress',
      'outbound-api',
      'in-progress',
      { status: 'completed', end_time: '2025-06-01T12:10:00.000Z', duration: 600, ring_duration: 0 },
    ],
    // An inbound call not answered ends with its ring time as duration.
    ['ringing', 'inbound', 'ringing', { status: 'no-answer', end_time: '2025-06-01T12:10:00.000Z', duration: 600 }],
    // An outbound one ends NO_ANSWER with neither end_time nor duration, as the Call actor writes it.
    ['queued', 'outbound-api', 'QUEUED', { status: 'NO_ANSWER' }],
    ['RINGING', 'outbound-dial', 'RINGING', { status: 'NO_ANSWER' }],
  ])('%s (%s) now, until end_time; then %j', async (given, direction, live, final) => {
    const { app, insert, get } = setupLive();
    const res = await insert([{ status: given, direction, end_time: '2025-06-01T12:10:00.000Z' }]);
    expect(res.status).toBe(201);
    const [call] = res.body as Record<string, unknown>[];
    expect(call).toMatchObject({ status: live, date_created: 'Sun, 1 Jun 2025 12:00:00 +0000' });
    expect(call).not.toHaveProperty('end_time');
    expect(call).not.toHaveProperty('duration');
    await post(app, { advance: 'PT9M59S' });
    expect((await get(call!['sid'] as string)).body.status).toBe(live);
    await post(app, { advance: 1 });
    const ended = (await get(call!['sid'] as string)).body;
    expect(ended).toMatchObject({ ...final, date_updated: 'Sun, 1 Jun 2025 12:10:00 +0000' });
    for (const k of ['end_time', 'duration']) if (!(k in final)) expect(ended).not.toHaveProperty(k);
  });

  test('the list sorts and filters it by its present status; an export and import keep its life', async () => {
    const { app, a, insert } = setupLive();
    const body = [{ status: 'in-progress', direction: 'inbound', end_time: '2025-06-01T13:00:00.000Z' }];
    expect((await insert(body)).status).toBe(201);
    const list = (q: string, on = app) =>
      request(on).get(`/call/2012-04-24/Accounts/${a.sid}/Calls.json?${q}`).auth(a.token, '');
    expect((await list('Status=in-progress')).body.total).toBe(1);
    const state = (await request(app).get('/__admin/state')).text;
    const other = makeEmulator();
    expect((await request(other.app).put('/__admin/state').type('json').send(state)).status).toBe(200);
    expect((await list('Status=in-progress', other.app)).body.total).toBe(1);
    await post(other.app, { advance: 'PT1H' });
    expect((await list('Status=in-progress', other.app)).body.total).toBe(0);
    expect((await list('Status=completed&PageSize=1', other.app)).body.calls[0].duration).toBe(3600);
  });

  test.each([
    [{ status: 'in-progress' }, 'end_time', problems.liveEnd],
    [{ status: 'in-progress', end_time: '2025-06-01T12:00:00.000Z' }, 'end_time', problems.liveEnd],
    [{ status: 'ringing', end_time: '2025-06-01T12:10:00.000Z', duration: 600 }, 'duration', problems.liveDerived],
  ])('%j is a 400 naming %s', async (body, field, problem) => {
    const { insert } = setupLive();
    const res = await insert([body]);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    expect(res.body.message).toContain(problem);
  });
});
