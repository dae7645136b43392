import { realpath } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import express, { type RequestHandler } from 'express';
import { messages } from '../errors';
import { CONSOLE_MOUNT } from '../format/uris';

/** Paths the console answers: its mount, alone or followed by a file or a query. */
const UNDER_CONSOLE = new RegExp(`^${CONSOLE_MOUNT}(?:[/?]|$)`);

/**
 * A request listener that serves Restcomm's admin console, its files unchanged, at the path a
 * Restcomm deployment serves it (`/restcomm-management/`), and hands every other request to
 * `next`. The console asks `/restcomm/2012-04-24/…` of its own origin, so served here it talks
 * to the emulator as it talks to production, with no proxy and no change. Its files stay out of
 * the journal, the faults and the response cache: they are not the API under test.
 */
export function withConsole(
  dir: string,
  next: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const files = express();
  files.disable('x-powered-by');
  files.use(CONSOLE_MOUNT, insideOnly(dir), express.static(dir, { index: 'index.html', redirect: true }));
  files.use((req, res) => {
    res.status(404).json({ message: messages.noConsoleFile(req.path) });
  });
  return (req, res) => (UNDER_CONSOLE.test(req.url ?? '') ? files(req, res) : next(req, res));
}

/**
 * Refuses (404) a file whose real place is outside `dir`: express.static keeps the path inside
 * the folder, but follows a symbolic link wherever it points, and the console is served without
 * credentials. A path that does not exist is left to express.static's own 404.
 */
function insideOnly(dir: string): RequestHandler {
  const root = realpath(dir);
  return async (req, res, next) => {
    let wanted: string;
    try {
      wanted = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const base = await root;
    const real = await realpath(join(dir, wanted)).catch(() => null);
    if (real === null || real === base || real.startsWith(base + sep)) return next();
    res.status(404).json({ message: messages.noConsoleFile(CONSOLE_MOUNT + req.path) });
  };
}
