import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve(__dirname, '..', '..');
export const CLI = resolve(ROOT, 'dist', 'cli.js');

export function requireBuild(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" (npm test does it first)`);
}

export interface Spawned {
  proc: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built CLI and resolves once it prints where it listens. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Spawned> {
  requireBuild();
  const proc = spawn(process.execPath, [CLI, '--port', '0', ...args], {
    env: { PATH: process.env['PATH'], ...env },
    stdio: 'pipe',
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start-up line in 10 s; stdout: ${out}; stderr: ${err}`)),
      10_000,
    );
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m !== null && out.includes('Try: ')) {
        clearTimeout(timer);
        resolveStart({
          proc,
          url: m[1]!,
          stdout: () => out,
          stderr: () => err,
          exited,
          stop: (signal = 'SIGTERM') => {
            proc.kill(signal);
            // A server that has not gone within its grace (2 s) and as much again is killed.
            const force = setTimeout(() => proc.kill('SIGKILL'), 5000);
            return exited.finally(() => clearTimeout(force));
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening; stderr: ${err}`));
    });
  });
}

/** Runs the CLI to completion (for --help and bad options). */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  requireBuild();
  const proc = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env['PATH'], ...env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((r) => proc.on('exit', (code) => r({ code, stdout, stderr })));
}

export async function get(url: string, token?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers['Authorization'] = `Basic ${Buffer.from(`${token}:`).toString('base64')}`;
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text() };
}

export interface AdminAccount {
  sid: string;
  token: string;
  friendly_name: string;
  calls: number;
  recordings: number;
}

export async function adminAccounts(url: string): Promise<AdminAccount[]> {
  return (JSON.parse((await get(`${url}/__admin/accounts`)).text) as { accounts: AdminAccount[] }).accounts;
}

/** Runs a command to its end: its exit code and everything it printed. */
export function runCommand(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
): Promise<{ code: number; out: string }> {
  return promisify(execFile)(cmd, args, { env: { ...process.env, ...env }, cwd, maxBuffer: 16 * 1024 * 1024 }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}
