import request from 'supertest';
import { applyProviderState } from '../../src/admin/provider-states';
import { parseStates } from '../../src/admin/state-defs';
import { messages, problems, ValidationError } from '../../src/errors';
import { authGet, callsPath, makeEmulator, recordingsPath } from '../support/app';

describe('POST /__admin/provider-states', () => {
  test('setup with defaults, then with params; teardown removes the account', async () => {
    const { app, world } = makeEmulator();
    const res = await request(app)
      .post('/__admin/provider-states')
      .type('json')
      .send({ state: 'an account with calls', action: 'setup' });
    expect(res.status).toBe(200);
    expect(res.body.accounts[0]).toMatchObject({
      sid: 'AC00000000000000000000000000000a11',
      token: 'pact-token',
      calls: 120,
      recordings: 30,
    });
    const again = await request(app)
      .post('/__admin/provider-states')
      .type('json')
      .send({ state: 'an account with calls', params: { calls: 7, recordings: 2, token: 'other' } });
    expect(again.body.accounts[0]).toMatchObject({ calls: 7, token: 'other' });
    expect((await authGet(app, callsPath('AC00000000000000000000000000000a11'), 'other')).body.total).toBe(7);
    expect(world.accounts().filter((a) => a.profile.sid === 'AC00000000000000000000000000000a11')).toHaveLength(1);
    const down = await request(app)
      .post('/__admin/provider-states')
      .type('json')
      .send({ state: 'an account with calls', action: 'teardown' });
    expect(down.body).toEqual({ state: 'an account with calls', action: 'teardown', accounts: [] });
    expect(world.account('AC00000000000000000000000000000a11')).toBeUndefined();
  });

  test('a state with inserted records', async () => {
    const { app } = makeEmulator();
    await request(app)
      .post('/__admin/provider-states')
      .type('json')
      .send({ state: 'a call with recordings' })
      .expect(200);
    const recs = await authGet(app, recordingsPath('AC00000000000000000000000000000c01'), 'pact-call-token');
    expect(recs.body.total).toBe(3);
    expect(recs.body.recordings.map((r: { duration: string }) => r.duration)).toEqual(['7.25', '60.0', '42.5']);
  });

  test('the states are listed', async () => {
    const { app } = makeEmulator();
    const res = await request(app).get('/__admin/provider-states');
    expect(res.body.states.map((s: { name: string }) => s.name)).toEqual([
      'an account with calls',
      'an empty account',
      'a call with recordings',
    ]);
  });

  test.each([
    [
      { state: 'a sunny day' },
      messages.unknownState('a sunny day', ['an account with calls', 'an empty account', 'a call with recordings']),
    ],
    [{ state: 'an empty account', action: 'explode' }, 'body.action'],
    [
      { state: 'an empty account', params: { colour: 'red' } },
      `body.params.colour: ${problems.notPlaceholder('an empty account', ['sid', 'token'])}`,
    ],
    [{ state: 'an account with calls', params: { calls: -3 } }, 'calls: must be an integer'],
    [{}, 'body.state'],
  ])('%j → 400', async (payload, text) => {
    const { app, world } = makeEmulator();
    const before = world.accounts().length;
    const res = await request(app).post('/__admin/provider-states').type('json').send(payload);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(text);
    expect(world.accounts().length).toBe(before);
  });
});

describe('a states file whose placeholders lack defaults', () => {
  test('is refused when read, naming the state and the placeholders, as any other error in the file', () => {
    const file = JSON.stringify({
      states: {
        'n calls': { account: { friendly_name: 'N', calls: '{{n}}', token: '{{token}}' }, params: { token: 't' } },
      },
    });
    expect(() => parseStates(file, 'f.json')).toThrow(
      new ValidationError('f.json: states["n calls"].params', problems.placeholderDefaults(['n'])),
    );
  });

  test('a param that is an object with its own toString fills a longer string as JSON: a 400 at worst, never a 500', () => {
    const states = parseStates(
      JSON.stringify({ states: { named: { params: { n: 'x' }, account: { friendly_name: 'N {{n}}' } } } }),
      'f.json',
    );
    const { world } = makeEmulator();
    const done = applyProviderState(world, states, { state: 'named', params: { n: { toString: {} } } });
    expect(done.accounts[0]?.profile.friendlyName).toBe('N {"toString":{}}');
  });
});
