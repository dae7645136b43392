import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli, type Spawned, startCli } from '../support/process';

/** `--data FILE` as a user starts it: the built CLI, Restcomm's own dataset. */
const DATA = resolve('test/fixtures/restcomm/restcomm_with_Data.script');
const ADMIN = 'ACae6e420f425248d6a26948c17a9e2acf';
const TOKEN = '77f8c12cc7b8f8423e5c38b035249166';
const ARGS = ['--data', DATA, '--dialect', 'restcomm', '--public-url', 'http://emulator.test:8080'];

async function bodies(em: Spawned): Promise<string[]> {
  const auth = { Authorization: `Basic ${Buffer.from(`${ADMIN}:${TOKEN}`).toString('base64')}` };
  const base = `${em.url}/restcomm/2012-04-24/Accounts/${ADMIN}`;
  const out: string[] = [];
  for (const path of [
    '/Calls.json?PageSize=1000',
    '/Calls?PageSize=100&SortBy=From:desc',
    '/Calls.json?StartTime=2013-08-23&EndTime=2013-08-30',
    '/Recordings.json?SortBy=Duration',
    '/Notifications.json',
  ]) {
    const res = await fetch(base + path, { headers: auth });
    out.push(`${res.status} ${await res.text()}`);
  }
  out.push(await (await fetch(`${em.url}/__admin/state/hash`)).text());
  return out;
}

describe('callrec-emulator --data FILE', () => {
  test("serves production's rows, the same bytes in two host time zones, and says what it loaded", async () => {
    const utc = await startCli(ARGS, { TZ: 'UTC' });
    const chatham = await startCli(ARGS, { TZ: 'Pacific/Chatham' });
    try {
      const a = await bodies(utc);
      expect(a.slice(0, 5).every((b) => b.startsWith('200 '))).toBe(true);
      expect(await bodies(chatham)).toEqual(a);
      // Only the dump's accounts: --data alone replaces the default ones.
      expect(utc.stdout()).toContain(`Loaded ${DATA} (hsqldb): restcomm_accounts 6, restcomm_call_detail_records 502`);
      expect(utc.stdout()).toContain('passed over, tables the emulator does not serve: restcomm_organizations 1');
      expect(utc.stdout()).toContain(`${ADMIN}  ${TOKEN}  448 `);
      expect(utc.stdout().match(/^ {2}AC[0-9a-zA-Z]{32} /gm)).toHaveLength(6);
    } finally {
      await Promise.all([utc.stop(), chatham.stop()]);
    }
  });

  test('a bad dump stops the start with the file, line and column, and nothing listens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-data-'));
    const file = join(dir, 'bad.sql');
    writeFileSync(
      file,
      "CREATE TABLE `restcomm_recordings` (`sid` varchar(34) NOT NULL, `duration` double NOT NULL);\nINSERT INTO `restcomm_recordings` VALUES ('RE1','long');\n",
    );
    const { code, stdout, stderr } = await runCli(['--data', file, '--port', '0']);
    expect(code).toBe(2);
    expect(stdout).not.toContain('listening');
    expect(stderr).toContain(`${file}:2:42: restcomm_recordings.duration: must be a DOUBLE, got "long"`);
  });
});
