import request from 'supertest';
import { COUNTED_CALLS } from '../../src/admin/records';
import { problems, ValidationError } from '../../src/errors';
import { authGet, byCalls, callsPath, makeEmulator } from '../support/app';

const countsOf = (app: Parameters<typeof request>[0], sid: string, calls: unknown) =>
  request(app).post(`/__admin/accounts/${sid}/recording-counts`).type('json').send({ calls });

describe('POST /__admin/accounts/{sid}/recording-counts', () => {
  test("each call's count is the length of its own Recordings sub-list, for a whole page", async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const page = await authGet(app, `${callsPath(a.sid)}?PageSize=200`, a.token);
    const sids = (page.body.calls as { sid: string }[]).map((c) => c.sid);
    const res = await countsOf(app, a.sid, sids);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.counts)).toEqual(sids);
    let withRecordings = 0;
    for (const sid of sids) {
      const sub = await authGet(app, `${callsPath(a.sid).replace('.json', '')}/${sid}/Recordings.json`, a.token);
      expect(res.body.counts[sid]).toBe((sub.body as unknown[]).length);
      if (res.body.counts[sid] > 0) withRecordings++;
    }
    // The seed records some calls and not others: the marks tell them apart.
    expect(withRecordings).toBeGreaterThan(0);
    expect(withRecordings).toBeLessThan(sids.length);
  });

  test('an inserted recording counts on its call; a deleted call and an unknown sid are null', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const [call, gone] = [a.store.calls.get(3), a.store.calls.get(4)];
    const before = (await countsOf(app, a.sid, [call.sid])).body.counts[call.sid] as number;
    await request(app).post(`/__admin/accounts/${a.sid}/recordings`).type('json').send({ call_sid: call.sid });
    await request(app).delete(`/__admin/accounts/${a.sid}/calls/${gone.sid}`);
    const res = await countsOf(app, a.sid, [call.sid, gone.sid, 'CAnothing']);
    expect(res.body.counts).toEqual({ [call.sid]: before + 1, [gone.sid]: null, CAnothing: null });
  });

  test.each([
    ['not an object', [], new ValidationError('body', problems.object).message],
    ['calls not an array', { calls: 'CA1' }, new ValidationError('body.calls', problems.array).message],
    [
      'a sid not a string',
      { calls: [7] },
      new ValidationError('body.calls[0]', problems.string('a call sid', 7)).message,
    ],
    [
      'too many',
      { calls: Array.from({ length: COUNTED_CALLS + 1 }, () => 'CA') },
      new ValidationError('body.calls', problems.tooMany(COUNTED_CALLS, COUNTED_CALLS + 1)).message,
    ],
  ])('%s: a 400 saying what is wrong', async (_case, body, message) => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const res = await request(app).post(`/__admin/accounts/${a.sid}/recording-counts`).type('json').send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  test('an unknown field is a 400, an unknown account a 404', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const res = await request(app).post(`/__admin/accounts/${a.sid}/recording-counts`).type('json').send({ sids: [] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(new ValidationError('body.sids', problems.unknownField(['calls'])).message);
    expect((await countsOf(app, 'ACnone', [])).status).toBe(404);
  });
});
