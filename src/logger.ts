import pino, { type Logger } from 'pino';
import type { LogLevel } from './config';

/**
 * Where and how logs are written: JSON lines (for collectors) unless stdout is a terminal, where
 * pino-pretty makes them readable. Null for `silent`, so that nothing is built per request.
 * @example loggerOptions('info', false) // { level: 'info', pretty: false }
 */
export function loggerOptions(level: LogLevel, isTty: boolean): { level: LogLevel; pretty: boolean } | null {
  return level === 'silent' ? null : { level, pretty: isTty };
}

export function createLogger(level: LogLevel, isTty: boolean): Logger | null {
  const options = loggerOptions(level, isTty);
  if (options === null) return null;
  return options.pretty
    ? pino({
        level,
        // On a terminal: one line a request, the message alone (method, path, status, time, warnings).
        transport: {
          target: 'pino-pretty',
          options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', hideObject: true, ignore: 'pid,hostname' },
        },
      })
    : pino({ level });
}
