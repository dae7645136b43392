import { readFileSync } from 'node:fs';
import http from 'node:http';
import { adminAccounts, startCli } from '../support/process';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

async function post(url: string, body: unknown): Promise<Record<string, any>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, any>;
}

describe('recording audio from the built server', () => {
  test('an hour-long recording streams with flat memory', async () => {
    const em = await startCli([]);
    try {
      const [a] = await adminAccounts(em.url);
      const call = await post(`${em.url}/__admin/accounts/${a!.sid}/calls`, {
        duration: 4000,
        status: 'completed',
        date_created: 'Sat, 31 May 2025 06:00:00 +0000',
      });
      const rec = await post(`${em.url}/__admin/accounts/${a!.sid}/recordings`, {
        call_sid: call['sid'],
        duration: '3600.0',
        date_created: 'Sat, 31 May 2025 07:01:00 +0000',
      });
      expect(rec['duration']).toBe('3600.0');
      const pid = em.proc.pid as number;
      const before = rssMb(pid);
      let peak = before;
      let bytes = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
      await new Promise<void>((done, fail) => {
        http
          .get(`${em.url}/call/2012-04-24/Accounts/${a!.sid}/Recordings/${rec['sid']}.wav`, (res) => {
            res.on('data', (c: Buffer) => (bytes += c.length));
            res.on('end', () => done());
          })
          .on('error', fail);
      });
      clearInterval(sampler);
      expect(bytes).toBe(44 + 2 * 3600 * 8000);
      // 55 MB went out; the server grew by a small fraction of that.
      expect(peak - before).toBeLessThan(25);
    } finally {
      await em.stop();
    }
  }, 60_000);
});
