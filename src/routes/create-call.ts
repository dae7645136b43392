import type { ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import { authedAccount } from '../auth';
import { ApiError, messages } from '../errors';
import type { Account } from '../store/world';
import { negotiate } from './list-page';
import type { ListSettings } from './list-settings';
import type { WireFormat } from './send-page';

/** A create's form is a few hundred bytes; this leaves room for long URLs and custom headers. */
const FORM_BYTES = 64 * 1024;
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** What takes a create on from here: the write log's side (admin/created-calls.ts), which answers it. */
export type CreateSubmit = (
  account: Account,
  form: Readonly<Record<string, string>>,
  format: WireFormat,
  res: ServerResponse,
) => Promise<void>;

/**
 * Each name's first value, as Jersey's `MultivaluedMap.getFirst` reads a form: `+` a space,
 * `%XX` decoded, names case-sensitive.
 * @example formOf('From=%2B1555&To=alice&To=bob') // { From: '+1555', To: 'alice' }
 */
export function formOf(body: string): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) if (!Object.hasOwn(form, name)) form[name] = value;
  return form;
}

/**
 * `POST …/Calls.json`, after the lists' auth: a form body (anything else is a 415), read as
 * production reads it and handed to `submit`.
 */
export function createCallHandler(settings: ListSettings, submit: CreateSubmit): RequestHandler[] {
  const create: RequestHandler = async (req, res) => {
    const format = negotiate(req, settings.dialect);
    await submit(authedAccount(res), formOf(formText(req)), format, res);
  };
  return [readFormBody(), create];
}

/** Reads a request's body as text, up to FORM_BYTES (a 413 past them), into `req.body`. */
export function readFormBody(): RequestHandler {
  const read = express.text({ type: () => true, limit: FORM_BYTES });
  return (req, res, next) =>
    read(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === 'entity.too.large') {
        next(new ApiError(413, messages.bodyTooLarge(FORM_BYTES)));
      } else {
        next(err);
      }
    });
}

/** The form `readFormBody` read: a body of another type than a form is a 415. */
export function formText(req: { headers: { 'content-type'?: string | undefined }; body?: unknown }): string {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = typeof req.body === 'string' ? req.body : '';
  if (text !== '' && type !== FORM_TYPE) throw new ApiError(415, messages.createNotForm(type));
  return text;
}
