import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { resolve } from 'node:path';

/** The repository root (this file runs from bench/.build/). */
export const ROOT = resolve(__dirname, '..', '..');
export const CLI = resolve(ROOT, 'dist', 'cli.js');

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number);
}

/** Resident set size of a process, in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** CPU time a process has used (user + system), in ms, from /proc (Linux; 100 ticks a second). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time (ms) of a process and every process under it: `--workers` serves from the primary's
 * children, and the server's cost is theirs too.
 */
export function treeCpuMs(pid: number): number {
  let total = cpuMs(pid);
  let children: string[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      children = children.concat(readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean));
    }
  } catch {
    // Gone meanwhile: its CPU so far is what there is.
  }
  for (const c of children) {
    try {
      total += treeCpuMs(Number(c));
    } catch {
      // A child that ended between the listing and the read.
    }
  }
  return total;
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  url: string;
  /** Milliseconds from spawn to the start-up line. */
  readyMs: number;
  /** The `Try:` line's token and URL (emulator only). */
  tryToken?: string;
  tryUrl?: string;
  stop(): Promise<void>;
}

/** Spawns a server and resolves when it prints `listening on URL` (and `Try:` for the emulator). */
export function spawnServer(args: string[], needTry: boolean, timeoutMs = 30_000): Promise<Child> {
  const t0 = process.hrtime.bigint();
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolveChild, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line from ${args.join(' ')}`)), timeoutMs);
    proc.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      // The service's own form (`-u TOKEN: URL`); another dialect prints its own, and it is not read.
      const tryLine = /Try: curl -u (\S+): (\S+)/.exec(out);
      if (url === undefined || (needTry && !/Try: curl [^\n]*\n/.test(out))) return;
      clearTimeout(timer);
      const child: Child = {
        proc,
        pid: proc.pid as number,
        url,
        readyMs: Number(process.hrtime.bigint() - t0) / 1e6,
        stop: () =>
          new Promise<void>((done) => {
            proc.removeAllListeners('exit');
            if (proc.exitCode !== null) return done();
            proc.once('exit', () => done());
            proc.kill('SIGTERM');
          }),
      };
      if (tryLine !== null) {
        child.tryToken = tryLine[1] as string;
        child.tryUrl = tryLine[2] as string;
      }
      // From here on stdout (request logs, at some levels) is drained and dropped, not kept.
      proc.stdout?.removeAllListeners('data');
      proc.stdout?.resume();
      resolveChild(child);
    });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export interface Timed {
  status: number;
  bytes: number;
  ms: number;
}

/**
 * One GET over a keep-alive connection, timed from send to last byte; `user` given: Basic
 * user:token. `through`: an https agent of its own (the interception proxy's tunnel).
 */
export function timedGet(
  url: string,
  token?: string,
  user?: string,
  through?: https.Agent,
): Promise<Timed & { body?: string }> {
  const headers: Record<string, string> = {};
  if (token !== undefined) {
    headers['authorization'] =
      user === undefined ? basic(token) : `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;
  }
  const t0 = process.hrtime.bigint();
  return new Promise((done, fail) => {
    (through === undefined ? http : https)
      .get(url, { agent: through ?? agent, headers }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, bytes, ms: Number(process.hrtime.bigint() - t0) / 1e6 }),
        );
      })
      .on('error', fail);
  });
}

export function basic(token: string): string {
  return `Basic ${Buffer.from(`${token}:`).toString('base64')}`;
}

export interface AdminAccount {
  sid: string;
  token: string;
  friendly_name: string;
  calls: number;
  recordings: number;
}

export async function accountsOf(url: string): Promise<AdminAccount[]> {
  const res = await fetch(`${url}/__admin/accounts`);
  return ((await res.json()) as { accounts: AdminAccount[] }).accounts;
}

export function callsUrl(base: string, sid: string, query = ''): string {
  return `${base}/call/2012-04-24/Accounts/${sid}/Calls.json${query}`;
}

export function recordingsUrl(base: string, sid: string, query = ''): string {
  return `${base}/call/2012-04-24/Accounts/${sid}/Recordings.json${query}`;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
