import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's redis-server is, or null (`.ci/run` installs it; a test names what is missing). */
export function redisServerPath(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops it (its append-only file keeps every write, as the compose file's does). */
  stop(): Promise<void>;
  /** Starts it again on the same port and files. */
  start(): Promise<void>;
}

/**
 * A redis-server of its own on a free port, persisting every write (appendonly, fsync always),
 * as the compose file runs the official image: a restart loses nothing.
 */
export async function startRedis(path: string): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'callrec-redis-'));
  let proc: ChildProcess | null = null;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const p = spawn(
        path,
        ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      proc = p;
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
      p.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      p.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        const p = proc;
        if (p === null || p.exitCode !== null) return resolve();
        p.removeAllListeners('exit');
        p.once('exit', () => resolve());
        p.kill('SIGTERM');
      }),
  };
}
