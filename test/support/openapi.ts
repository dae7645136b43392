import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { withAliases } from '../../src/format/openapi';
import { TWILIO_VERSION } from '../../src/format/uris';
import { checkTwilio } from './twilio-openapi';

/**
 * Every response the HTTP tests receive is checked against openapi.json, so the document cannot
 * drift from the code: a status it does not list, or a body its schema refuses, is a violation,
 * and the suite fails at its end (see openapi-setup.ts).
 */
// The document as served: the kept one with its mount and suffix aliases.
const doc = withAliases(
  JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'openapi.json'), 'utf8')),
) as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};

/** The path an item stands under, following a path item that is a `$ref` to another (the dialect's aliases). */
function ownPath(path: string): string {
  const ref = (doc.paths[path] as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string') return path;
  return decodeURIComponent(ref.replace('#/paths/', '')).replace(/~1/g, '/').replace(/~0/g, '~');
}
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
ajv.addSchema(doc, 'openapi');

const templates = Object.keys(doc.paths).map((path) => ({
  path,
  re: new RegExp(`^${path.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  // The most literal template wins: `…/{RecordingSid}.wav` over `…/{RecordingSid}`.
  literal: path.replace(/\{[^}]+\}/g, '').length,
}));

export const violations: string[] = [];
export let checked = 0;

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export function check(method: string, url: string, status: number, contentType: string, body: string): void {
  const path = url.split('?')[0] as string;
  // A CORS preflight (--cors) is transport, not API.
  if (method === 'OPTIONS' && status === 204) return;
  // Twilio's dialect is held to Twilio's own document.
  if (path.startsWith(`/${TWILIO_VERSION}/`)) {
    checked++;
    const wrong = checkTwilio(method, path, status, contentType, body);
    if (wrong !== null) violations.push(wrong);
    return;
  }
  const found = templates.filter((t) => t.re.test(path)).sort((a, b) => b.literal - a.literal)[0];
  const match = found === undefined ? undefined : { path: ownPath(found.path) };
  const item = match === undefined ? undefined : doc.paths[match.path];
  // HEAD answers as GET does, without a body, where the document lists no HEAD of its own.
  const m = method === 'HEAD' && item?.['head'] === undefined ? 'get' : method.toLowerCase();
  const op = item?.[m];
  checked++;
  if (op === undefined) {
    // Paths and methods the document does not list may only answer with the error shape.
    if (status < 400) violations.push(`${method} ${path}: ${status}, but the document has no such operation`);
    else if (body !== '' && !ajv.validate('openapi#/components/schemas/Error', JSON.parse(body)))
      violations.push(`${method} ${path}: ${status} body is not an Error`);
    return;
  }
  const code =
    op.responses[String(status)] !== undefined ? String(status) : status >= 400 && status < 500 ? '4XX' : undefined;
  if (code === undefined) {
    violations.push(`${method} ${match!.path}: status ${status} is not documented`);
    return;
  }
  if (method === 'HEAD' || body === '') return;
  if (!contentType.startsWith('application/json')) {
    if (op.responses[code]?.content?.[contentType.split(';')[0] as string] === undefined)
      violations.push(`${method} ${match!.path}: content type ${contentType} is not documented`);
    return;
  }
  const ref =
    code === '4XX' && op.responses[code]?.content === undefined
      ? 'openapi#/components/schemas/Error'
      : `openapi#/paths/${pointer(match!.path)}/${m}/responses/${code}/content/application~1json/schema`;
  const response = op.responses[code] as { $ref?: string };
  const schemaRef = response.$ref !== undefined ? 'openapi#/components/schemas/Error' : ref;
  const validate = ajv.getSchema(schemaRef) ?? ajv.compile({ $ref: schemaRef });
  if (!validate(JSON.parse(body))) {
    violations.push(`${method} ${url}: ${status} body: ${ajv.errorsText(validate.errors)}`);
  }
}

/** Wraps a request listener so that each response is checked when it finishes. */
export function validating<T extends (req: IncomingMessage, res: ServerResponse) => void>(
  listener: T,
  skip: () => boolean,
): T {
  const wrapped = (req: IncomingMessage, res: ServerResponse) => {
    // A hand-made response (the journal's load test) has nothing to check.
    if (typeof res.write !== 'function') return listener(req, res);
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    const keep = (c: unknown) => {
      if (typeof c === 'string') chunks.push(Buffer.from(c));
      else if (c instanceof Uint8Array) chunks.push(Buffer.from(c));
    };
    (res as unknown as { write: unknown }).write = (c: unknown, ...rest: unknown[]) => {
      keep(c);
      return write(c, ...rest);
    };
    (res as unknown as { end: unknown }).end = (c?: unknown, ...rest: unknown[]) => {
      if (typeof c !== 'function') keep(c);
      return end(c, ...rest);
    };
    res.once('finish', () => {
      if (skip()) return;
      const raw = (res as unknown as { _header?: string })._header ?? '';
      const contentType = String(res.getHeader('content-type') ?? /content-type: ([^\r\n]+)/i.exec(raw)?.[1] ?? '');
      check(req.method ?? 'GET', req.url ?? '/', res.statusCode, contentType, Buffer.concat(chunks).toString('utf8'));
    });
    listener(req, res);
  };
  return Object.assign(wrapped, listener) as T;
}
