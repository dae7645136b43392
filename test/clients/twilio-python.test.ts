import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type EmulatorHandle, startEmulator } from '../../src/emulator';
import { receiver, statusesOf } from '../support/receiver';

/**
 * Debian's python3-twilio (7.x), unchanged but for `client.api.base_url`, against `--dialect
 * twilio`: it lists, streams and pages every call, filters, fetches, creates, updates and
 * deletes, and its own RequestValidator accepts every callback the emulator sent.
 */
const PYTHON = '/usr/bin/python3';
const found = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import twilio.rest']).status === 0;
if (!found) process.stderr.write("\ntwilio-python check SKIPPED: install Debian's python3-twilio.\n\n");
const SCRIPT = join(__dirname, 'twilio_python.py');
type Item = Record<string, any>;

(found ? describe : describe.skip)("Debian's python3-twilio", () => {
  let em: EmulatorHandle;
  beforeAll(async () => {
    em = await startEmulator({ dialect: 'twilio', seed: 'twilio-python' });
  });
  afterAll(async () => {
    await em.close();
  });

  test('walks, filters, fetches, creates, updates and deletes; validates every callback', async () => {
    const [a] = em.accounts;
    const { sid, token } = a as { sid: string; token: string };
    const auth = { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` };
    const all = (await (
      await fetch(`${em.url}/2010-04-01/Accounts/${sid}/Calls.json?PageSize=1000`, { headers: auth })
    ).json()) as Item;
    const calls = all.calls as Item[];
    const recs = (await (
      await fetch(`${em.url}/2010-04-01/Accounts/${sid}/Recordings.json?PageSize=1000`, { headers: auth })
    ).json()) as Item;
    const rx = await receiver();
    const py = spawn(PYTHON, [SCRIPT, em.url, sid, token, rx.url], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: string[] = [];
    let buffered = '';
    const nextLine = () =>
      new Promise<string>((resolve, reject) => {
        const take = () => {
          const at = buffered.indexOf('\n');
          if (at < 0) return false;
          resolve(buffered.slice(0, at));
          buffered = buffered.slice(at + 1);
          return true;
        };
        if (take()) return;
        const onData = (chunk: Buffer) => {
          buffered += chunk.toString('utf8');
          if (take()) py.stdout.off('data', onData);
        };
        py.stdout.on('data', onData);
        py.once('exit', (code) => reject(new Error(`python exited ${code}`)));
      });
    try {
      const out = JSON.parse(await nextLine()) as Item;
      lines.push('ok');
      const sids = calls.map((c) => c.sid);
      expect(out.list).toEqual(sids);
      expect(out.stream).toEqual(sids);
      expect(out.pages.flat()).toEqual(sids);
      expect(out.pages.map((p: string[]) => p.length)).toEqual([300, 148]);
      expect(out.recordings).toEqual((recs.recordings as Item[]).map((r) => r.sid));
      expect(out.busy).toEqual(calls.filter((c) => c.status === 'busy').map((c) => c.sid));
      expect(out.to).toEqual(calls.filter((c) => c.to === calls[0]?.to).map((c) => c.sid));
      const after = Date.parse(`${out.after.at}`);
      expect(out.after.sids).toEqual(calls.filter((c) => Date.parse(c.start_time) >= after).map((c) => c.sid));
      const day = Date.parse(`${out.day.at}T00:00:00Z`);
      expect(out.day.sids).toEqual(
        calls
          .filter((c) => Date.parse(c.start_time) >= day && Date.parse(c.start_time) < day + 86_400_000)
          .map((c) => c.sid),
      );
      expect(out.day.sids.length).toBeGreaterThan(0);
      const rec = (recs.recordings as Item[])[0] as Item;
      expect(out.by_call).toEqual(
        (recs.recordings as Item[]).filter((r) => r.call_sid === rec.call_sid).map((r) => r.sid),
      );
      expect(out.fetched).toMatchObject({ sid: calls[0]?.sid, status: calls[0]?.status, duration: calls[0]?.duration });
      expect(Date.parse(out.fetched.date_created)).toBe(Date.parse(calls[0]?.date_created));
      expect(out.missing).toEqual({ status: 404, code: 20404 });
      expect([out.created.status, out.updated, out.removed]).toEqual(['queued', 'canceled', true]);
      // The update ended the call: its completed callback went at once, after initiated.
      for (let i = 0; i < 200 && rx.got.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(statusesOf(rx.got)).toEqual(['initiated', 'canceled']);
      for (const got of rx.got) {
        const params = Object.fromEntries(new URLSearchParams(got.body));
        py.stdin.write(
          `${JSON.stringify({ url: `${rx.url}${got.url}`, params, signature: got.headers['x-twilio-signature'] })}\n`,
        );
        expect(await nextLine()).toBe('true');
        py.stdin.write(
          `${JSON.stringify({ url: `${rx.url}${got.url}`, params: { ...params, CallStatus: 'x' }, signature: got.headers['x-twilio-signature'] })}\n`,
        );
        expect(await nextLine()).toBe('false');
      }
    } finally {
      py.stdin.end();
      await rx.close();
    }
    expect(lines).toEqual(['ok']);
  }, 60_000);
});
