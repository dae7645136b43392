import { hostname } from 'node:os';
import type { LogLevel } from './config';

/**
 * sonic-boom (pino's writer), loaded when the first line is written: at the default level a
 * server that answers well may never write a line.
 */
function loadSonicBoom(): typeof import('sonic-boom') {
  return require('sonic-boom') as typeof import('sonic-boom');
}

/**
 * Where and how logs are written: JSON lines (for collectors) unless stdout is a terminal, where
 * a line is the time, the level and the message (`prettyLine`). Null for `silent`, so that nothing is built per request.
 * @example loggerOptions('info', false) // { level: 'info', pretty: false }
 */
export function loggerOptions(level: LogLevel, isTty: boolean): { level: LogLevel; pretty: boolean } | null {
  return level === 'silent' ? null : { level, pretty: isTty };
}

/** The levels a request is logged at, by its outcome. */
export type RequestLevel = 'info' | 'warn' | 'error';

/** What is logged of one request: never a header. */
export interface RequestEntry {
  id: number;
  method: string;
  url: string;
  status: number;
  ms: number;
  msg: string;
}

/** The request log: asked first whether a level is on, so that nothing is built for one that is off. */
export interface RequestLogger {
  enabled(level: RequestLevel): boolean;
  log(level: RequestLevel, entry: RequestEntry): void;
}

/** pino's level numbers. */
const LEVEL_VALUES: Record<Exclude<LogLevel, 'silent'>, number> = {
  fatal: 60,
  error: 50,
  warn: 40,
  info: 30,
  debug: 20,
  trace: 10,
};

/**
 * One JSON line, in pino's shape and key order (a collector set up for pino reads it), written
 * by hand: the request log is on every request's path, and a general serializer cost a third of
 * the server's time at the default level. Only the URL and the message are free text.
 * @example jsonLine('info', e, 1750000000000, 7, '"vm"') // '{"level":30,"time":1750000000000,"pid":7,"hostname":"vm","req":{"id":1,"method":"GET","url":"/call/…"},"res":{"statusCode":200},"responseTime":1.2,"msg":"GET /call/… 200 1.2 ms"}\n'
 */
export function jsonLine(level: RequestLevel, e: RequestEntry, timeMs: number, pid: number, host: string): string {
  return (
    `{"level":${LEVEL_VALUES[level]},"time":${timeMs},"pid":${pid},"hostname":${host},` +
    `"req":{"id":${e.id},"method":${JSON.stringify(e.method)},"url":${JSON.stringify(e.url)}},` +
    `"res":{"statusCode":${e.status}},"responseTime":${e.ms},"msg":${JSON.stringify(e.msg)}}\n`
  );
}

/** A level's colour on a terminal: green, yellow, red. */
const COLOURS: Record<RequestLevel, number> = { info: 32, warn: 33, error: 31 };

const two = (n: number) => String(n).padStart(2, '0');

/**
 * One request on a terminal: the local time, the level (coloured) and the message, as
 * pino-pretty printed it before (which brought 13 packages for this line).
 * @example prettyLine('warn', 'GET /x 404 0.4 ms', new Date(2025, 5, 1, 9, 5, 3, 7)) // '[09:05:03.007] \x1b[33mWARN\x1b[39m: GET /x 404 0.4 ms\n'
 */
export function prettyLine(level: RequestLevel, msg: string, at: Date): string {
  const time = `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
  return `[${time}] \x1b[${COLOURS[level]}m${level.toUpperCase()}\x1b[39m: ${msg}\n`;
}

export function createLogger(level: LogLevel, isTty: boolean): RequestLogger | null {
  const options = loggerOptions(level, isTty);
  if (options === null || level === 'silent') return null;
  const threshold = LEVEL_VALUES[level];
  const enabled = (l: RequestLevel) => LEVEL_VALUES[l] >= threshold;
  // Wall-clock time stamps the log only; it never shapes data.
  if (options.pretty) return { enabled, log: (l, e) => process.stdout.write(prettyLine(l, e.msg, new Date())) };
  // Written asynchronously: lines that come while a write is in flight go out with the next one,
  // so a busy server makes a few large writes instead of a syscall a request, and an idle one
  // still writes each line at once. What is left is flushed when the process exits.
  let out: import('sonic-boom').SonicBoom | null = null;
  const host = JSON.stringify(hostname());
  return {
    enabled,
    log: (l, e) => {
      out ??= new (loadSonicBoom().SonicBoom)({ fd: 1, sync: false });
      out.write(jsonLine(l, e, Date.now(), process.pid, host));
    },
  };
}
