import type { LookupAddress } from 'node:dns';
import request from 'supertest';
import { CallbackDesk, guardedLookup, isLoopbackAddress } from '../../src/callbacks/callback-desk';
import type { AccountSpec } from '../../src/generators/account-spec';
import { defaultAccounts, makeEmulator } from '../support/app';
import { receiver } from '../support/receiver';

const CALLS = (sid: string) => `/call/2012-04-24/Accounts/${sid}/Calls.json`;
const ACCOUNT: AccountSpec = {
  friendlyName: 'Callbacks',
  calls: 0,
  recordings: 0,
  sid: 'AC0000000000000000000000000000000b',
  token: 'callbacks-token',
  outcomes: { byTo: { '+15550000001': 'completed' } },
};
type App = ReturnType<typeof makeEmulator>['app'];
const create = (app: App, statusCallback: string) =>
  request(app)
    .post(CALLS(ACCOUNT.sid as string))
    .auth(ACCOUNT.token as string, '')
    .type('form')
    .send(
      new URLSearchParams({
        From: '+15126002188',
        To: '+15550000001',
        Url: 'http://127.0.0.1:1/rcml',
        StatusCallback: statusCallback,
      }).toString(),
    );
const move = (app: App, advance: string) =>
  request(app).post('/__admin/clock').type('json').send(JSON.stringify({ advance }));
interface Entry {
  event: string;
  error: string | null;
  response: { status: number } | null;
  state: string;
}
const entries = async (app: App) => (await request(app).get('/__admin/callbacks')).body.callbacks as Entry[];

async function settled(app: App): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await request(app).get('/__admin/callbacks')).body.pending === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('callbacks still pending');
}

describe('a delivery has a deadline, not only an idle timeout', () => {
  test('a receiver that drips a byte every 100 ms (past a 300 ms timeout) is cut at the timeout, and the move answers', async () => {
    const rx = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(drip));
    });
    try {
      const { app } = makeEmulator({ accounts: [...defaultAccounts, ACCOUNT], callbackTimeoutMs: 300 });
      expect((await create(app, `${rx.url}/drip`)).status).toBe(200);
      const moved = await move(app, 'PT1H');
      expect(moved.status).toBe(200);
      await settled(app);
      const got = await entries(app);
      expect(got.length).toBeGreaterThanOrEqual(2);
      for (const e of got)
        expect(e.error).toBe("no whole answer within 300 ms (the delivery's deadline, redirects included)");
    } finally {
      await rx.close();
    }
  });
});

describe('a receiver that moves the clock while it answers', () => {
  test('gets its answer through: the ringing callback is journaled as answered, and both moves answer', async () => {
    let app: App | null = null;
    let inner: number | null = null;
    const rx = await receiver((_req, res, body) => {
      if (new URLSearchParams(body).get('CallStatus') !== 'ringing' || inner !== null) return void res.end('OK');
      inner = 0;
      // As an app under test might: on ringing, jump two hours ahead, then answer.
      void move(app as App, 'PT2H').then((r) => {
        inner = r.status;
        res.end('OK');
      });
    });
    try {
      app = makeEmulator({ accounts: [...defaultAccounts, ACCOUNT], callbackTimeoutMs: 4000 }).app;
      expect((await create(app, `${rx.url}/s`)).status).toBe(200);
      await settled(app);
      const outer = await move(app, 'PT2S');
      expect(outer.status).toBe(200);
      expect(inner).toBe(200);
      await settled(app);
      const byEvent = new Map((await entries(app)).map((e) => [e.event, e]));
      expect(byEvent.get('ringing')).toMatchObject({ error: null, response: { status: 200 } });
      expect([...byEvent.keys()]).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    } finally {
      await rx.close();
    }
  });
});

describe('names taken as loopback must resolve to loopback', () => {
  /** A hosts file of the test's own: every name to the address given. */
  const hostsFile =
    (address: string) =>
    (_host: string, _options: unknown, callback: (err: Error | null, found: LookupAddress[]) => void) =>
      callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  const look = (name: string, address: string, allowed: string[] = [], all = false) =>
    new Promise<{ err: NodeJS.ErrnoException | null; found: unknown }>((resolve) =>
      guardedLookup(allowed, hostsFile(address) as never)(name, { all }, (err, found) => resolve({ err, found })),
    );

  test.each(['localhost.localdomain', 'ip6-localhost', 'evil.localhost', 'localhost'])(
    '%s mapped to 10.255.255.1 is refused before any connection',
    async (name) => {
      const { err } = await look(name, '10.255.255.1');
      expect(err?.message).toBe(`${name} resolves to 10.255.255.1, not loopback: refused`);
      expect(err?.code).toBe('ENOTLOOPBACK');
    },
  );

  test('mapped to loopback it goes through, in either form of the look-up; a name --callback-hosts gives goes anywhere', async () => {
    expect((await look('localhost', '127.0.0.1')).found).toBe('127.0.0.1');
    expect((await look('ip6-localhost', '::1', [], true)).found).toEqual([{ address: '::1', family: 6 }]);
    expect((await look('hooks.example.com', '10.1.2.3', ['*.example.com'])).found).toBe('10.1.2.3');
    expect(isLoopbackAddress('::ffff:127.0.0.9')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
  });
});

describe('the running clock finds due callbacks by instant, not by rescanning every created call', () => {
  test('an index built once serves every tick until a write; a create builds it again', async () => {
    const rx = await receiver();
    try {
      const { app } = makeEmulator({ accounts: [...defaultAccounts, ACCOUNT] });
      for (let i = 0; i < 5; i++) expect((await create(app, `${rx.url}/s`)).status).toBe(200);
      const scans = jest.spyOn(CallbackDesk, 'dueBetween');
      try {
        for (let i = 0; i < 10; i++) expect((await move(app, 'PT1S')).status).toBe(200);
        // One scan of the account's calls serves all ten moves.
        expect(scans.mock.calls.filter(([calls]) => calls.length === 5)).toHaveLength(1);
        expect((await create(app, `${rx.url}/s`)).status).toBe(200);
        await move(app, 'PT1S');
        expect(scans.mock.calls.filter(([calls]) => calls.length === 6)).toHaveLength(1);
      } finally {
        scans.mockRestore();
      }
      await move(app, 'PT1H');
      await settled(app);
      // Every call's four states, each once, as before the index.
      const got = await entries(app);
      expect(got.filter((e) => e.event === 'completed')).toHaveLength(6);
      expect(got).toHaveLength(24);
    } finally {
      await rx.close();
    }
  });
});
