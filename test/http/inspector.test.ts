import request from 'supertest';
import { messages } from '../../src/errors';
import { byCalls, makeEmulator } from '../support/app';

describe('the inspector is served by the emulator itself', () => {
  test('its page and modules, with a policy that lets it ask nothing of any other host', async () => {
    const { app } = makeEmulator();
    const page = await request(app).get('/__admin/ui');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    // Every script and style the page names is served here, from /__admin/ui.
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(refs.filter((r) => !r.startsWith('#') && r !== 'data:,')).toEqual([
      '/__admin/ui/style.css',
      '/__admin/ui/app.js',
    ]);
    for (const ref of ['/__admin/ui/style.css', '/__admin/ui/app.js']) {
      expect((await request(app).get(ref)).status).toBe(200);
    }
    const js = await request(app).get('/__admin/ui/app.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // Its modules import one another by relative path, and nothing else.
    for (const m of js.text.matchAll(/from '([^']+)'/g)) expect(m[1]).toMatch(/^\.\/[a-z-]+\.js$/);
  });

  test('an unknown file is a 404 naming it; a build without the files says so', async () => {
    const unknown = await request(makeEmulator().app).get('/__admin/ui/nope.js');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(messages.noUiFile('nope.js'));
    const bare = await request(makeEmulator({ ui: new Map() }).app).get('/__admin/ui');
    expect(bare.status).toBe(404);
    expect(bare.body.message).toBe(messages.noUi);
  });

  test('behind --admin-token: the page asks for Basic auth, whose password is the token; JSON routes keep Bearer', async () => {
    const { app } = makeEmulator({ adminToken: 'secret' });
    const bare = await request(app).get('/__admin/ui');
    expect(bare.status).toBe(401);
    expect(bare.headers['www-authenticate']).toBe('Basic realm="callrec-emulator admin"');
    expect((await request(app).get('/__admin/accounts')).headers['www-authenticate']).toMatch(/^Bearer /);
    expect((await request(app).get('/__admin/ui').auth('anyone', 'secret')).status).toBe(200);
    expect((await request(app).get('/__admin/accounts').auth('anyone', 'secret')).status).toBe(200);
    expect((await request(app).get('/__admin/accounts').auth('anyone', 'wrong')).status).toBe(401);
    expect((await request(app).get('/__admin/accounts').auth('secret', '')).status).toBe(401);
    // Basic auth does not open mutations to cross-site forms: they still need a JSON body type.
    const form = await request(app).post('/__admin/reset').auth('x', 'secret').type('form').send('a=1');
    expect(form.status).toBe(415);
  });
});

describe('GET /__admin/requests/{id}: an entry with the headers of its request and answer', () => {
  test('rendered, cached and injected answers all show their headers; credentials show their scheme only', async () => {
    const { app } = makeEmulator();
    const acme = byCalls(makeEmulator().world, 448);
    const list = `/call/2012-04-24/Accounts/${acme.sid}/Calls.json?PageSize=3`;
    await request(app).get(list).auth(acme.token, '').set('X-Trace', 'one');
    await request(app).get(list).auth(acme.token, '');
    await request(app).post('/__admin/faults').type('json').send('{"path":"/call/","status":503,"times":1}');
    await request(app).get(list).auth(acme.token, '');
    const [injected, cached, rendered] = (await request(app).get('/__admin/requests')).body.requests;
    const detail = async (id: number) => (await request(app).get(`/__admin/requests/${id}`)).body;

    const first = await detail(rendered.id);
    expect(first).toMatchObject({ id: rendered.id, status: 200, path: rendered.path });
    expect(first.request_headers).toContainEqual(['X-Trace', 'one']);
    expect(first.request_headers).toContainEqual(['Authorization', 'Basic …']);
    expect(JSON.stringify(first)).not.toContain(Buffer.from(`${acme.token}:`).toString('base64'));
    expect(first.response_headers['content-type']).toBe('application/json');
    expect((await detail(cached.id)).response_headers['content-type']).toBe(first.response_headers['content-type']);
    const fault = await detail(injected.id);
    expect(fault.status).toBe(503);
    expect(fault.fault).toMatchObject({ effect: 'status' });
    expect(fault.response_headers['content-type']).toBe('application/json');
  });

  test.each(['0', 'x', '99999', '1e3'])('%s is a 404 saying the entry may have left the journal', async (id) => {
    const res = await request(makeEmulator().app).get(`/__admin/requests/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(messages.noJournalEntry(id));
  });
});
