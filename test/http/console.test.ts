import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app';
import { DEFAULT_CLOCK, DEFAULT_SEED } from '../../src/config';
import { messages } from '../../src/errors';
import { parseInstant } from '../../src/format/dates';
import { World } from '../../src/store/world';
import { defaultAccounts, PUBLIC_URL } from '../support/app';

/** A console folder as Restcomm's is laid out: index.html, scripts under resources/. */
const dir = mkdtempSync(join(tmpdir(), 'callrec-console-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Restcomm</title>');
mkdirSync(join(dir, 'resources', 'js'), { recursive: true });
writeFileSync(join(dir, 'resources', 'js', 'restcomm.js'), 'var rcMod;');
// Links out of the folder (a file and a folder), and one that stays inside it.
const secret = mkdtempSync(join(tmpdir(), 'callrec-secret-'));
writeFileSync(join(secret, 'token.txt'), 'the secret');
symlinkSync(join(secret, 'token.txt'), join(dir, 'leak.txt'));
symlinkSync(secret, join(dir, 'outside'));
symlinkSync(join(dir, 'resources', 'js', 'restcomm.js'), join(dir, 'alias.js'));

const world = new World({
  seed: DEFAULT_SEED,
  clockMs: parseInstant(DEFAULT_CLOCK) as number,
  accounts: defaultAccounts,
});
const app = createApp({
  world,
  paging: 'production',
  dialect: 'restcomm',
  maxPageSize: null,
  publicUrl: PUBLIC_URL,
  restcommConsole: dir,
  onInternalError: () => undefined,
});
const acme = world.accounts()[0]!.profile;

describe("--restcomm-console: Restcomm's console served from the emulator's origin", () => {
  test('its files at /restcomm-management/, unchanged, with their types', async () => {
    const index = await request(app).get('/restcomm-management/');
    expect([index.status, index.type, index.text]).toEqual([
      200,
      'text/html',
      '<!doctype html><title>Restcomm</title>',
    ]);
    const script = await request(app).get('/restcomm-management/resources/js/restcomm.js');
    expect([script.status, script.type, script.text]).toEqual([200, 'text/javascript', 'var rcMod;']);
    // The mount alone goes to the folder, as a Restcomm deployment does.
    const bare = await request(app).get('/restcomm-management');
    expect([bare.status, bare.headers['location']]).toEqual([301, '/restcomm-management/']);
  });

  test('a file it does not have is a 404 with a message; nothing outside the folder is reachable', async () => {
    const missing = await request(app).get('/restcomm-management/nope.js');
    expect([missing.status, missing.body]).toEqual([
      404,
      { message: messages.noConsoleFile('/restcomm-management/nope.js') },
    ]);
    const outside = await request(app).get('/restcomm-management/%2e%2e/%2e%2e/etc/passwd');
    expect(outside.status).toBeGreaterThanOrEqual(400);
    expect(outside.status).toBeLessThan(500);
    expect(outside.text).not.toContain('root:');
  });

  test('a symbolic link out of the folder is a 404, file or folder; one that stays inside is served', async () => {
    for (const path of ['/restcomm-management/leak.txt', '/restcomm-management/outside/token.txt']) {
      const res = await request(app).get(path);
      expect([res.status, res.body]).toEqual([404, { message: messages.noConsoleFile(path) }]);
      expect(res.text).not.toContain('the secret');
    }
    const alias = await request(app).get('/restcomm-management/alias.js');
    expect([alias.status, alias.text]).toEqual([200, 'var rcMod;']);
  });

  test('the API beside it answers as ever, and the journal holds the API alone', async () => {
    await request(app).get('/restcomm-management/');
    const res = await request(app)
      .get(`/restcomm/2012-04-24/Accounts/${acme.sid}/Calls.json?PageSize=1`)
      .auth(acme.sid, acme.token);
    expect([res.status, res.body.calls.length]).toEqual([200, 1]);
    const journal = (await request(app).get('/__admin/requests')).body.requests as { path: string }[];
    expect(journal.some((e) => e.path.startsWith('/restcomm-management'))).toBe(false);
    expect(journal.some((e) => e.path.endsWith('/Calls.json'))).toBe(true);
  });
});
