import express, { type RequestHandler } from 'express';
import { CREATE_CALL_ROUTE, type CreateForm, unreadParams } from '../admin/create-call';
import { VERSION_HEADER } from '../admin/mount';
import type { WriteLog } from '../admin/write-log';
import { authedAccount } from '../auth';
import { ApiError, messages } from '../errors';
import { headerSafe, type ListSettings, negotiate } from './list';

/** A create's form is a few hundred bytes; this leaves room for long URLs and custom headers. */
const FORM_BYTES = 64 * 1024;
const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Each name's first value, as Jersey's `MultivaluedMap.getFirst` reads a form: `+` a space,
 * `%XX` decoded, names case-sensitive.
 * @example formOf('From=%2B1555&To=alice&To=bob') // { From: '+1555', To: 'alice' }
 */
export function formOf(body: string): CreateForm {
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) if (!Object.hasOwn(form, name)) form[name] = value;
  return form;
}

/**
 * `POST …/Calls.json`: a form-encoded create, after the lists' auth. The request goes through
 * the write log (see admin/create-call.ts) and comes back as production's answer. A parameter
 * production reads nowhere is ignored there too, and said in `X-Emulator-Warning` (a 400 with
 * `--strict`); a body that is not a form is a 415.
 */
export function createCallHandler(settings: ListSettings, log: WriteLog): RequestHandler[] {
  const read = express.text({ type: () => true, limit: FORM_BYTES });
  const readForm: RequestHandler = (req, res, next) =>
    read(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === 'entity.too.large') {
        next(new ApiError(413, messages.bodyTooLarge(FORM_BYTES)));
      } else {
        next(err);
      }
    });
  const create: RequestHandler = async (req, res) => {
    const format = negotiate(req, settings.dialect);
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const text = typeof req.body === 'string' ? req.body : '';
    if (text !== '' && type !== FORM_TYPE) throw new ApiError(415, messages.createNotForm(type));
    const form = formOf(text);
    const warnings = unreadParams(form).map((name) => headerSafe(messages.createUnread(name)));
    const [first] = warnings;
    if (settings.strict && first !== undefined) throw new ApiError(400, first);
    const account = authedAccount(res);
    const { version, reply } = await log.write(CREATE_CALL_ROUTE, { sid: account.profile.sid, format }, '', {
      value: form,
    });
    if (!('bytes' in reply)) throw new Error('a create answers bytes');
    for (const w of warnings) res.appendHeader('X-Emulator-Warning', w);
    res.setHeader(VERSION_HEADER, version);
    res.status(reply.status).setHeader('Content-Type', reply.type);
    res.end(reply.bytes);
  };
  return [readForm, create];
}
