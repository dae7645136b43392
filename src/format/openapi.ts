import { ADMIN, API_VERSION, DIALECTS } from './uris';

/** An OpenAPI document as far as its aliases need it: path items by path. */
export interface OpenApiDoc {
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** Every prefix the API is served under, in any dialect. */
const MOUNTS = [...new Set(Object.values(DIALECTS).flatMap((d) => d.mounts))];
const METHODS = ['get', 'head', 'post', 'put', 'delete', 'patch'];

/** What the suffix-less form of an operation says when its `.json` form says nothing. */
const SUFFIX_NOTE = 'Without .json: JSON when Accept contains json, else 406 (production answers XML here).';

/** The mount an API path stands under, and the rest of it; undefined for the admin API and `/`. */
function splitMount(path: string): { mount: string; rest: string } | undefined {
  if (path.startsWith(ADMIN)) return undefined;
  // The longest mount first: '' is a prefix of every path.
  for (const mount of [...MOUNTS].sort((a, b) => b.length - a.length)) {
    if (path.startsWith(`${mount}/${API_VERSION}/`)) return { mount, rest: path.slice(mount.length) };
  }
  return undefined;
}

/** A JSON pointer to a path item. @example pathRef('/a/{b}') // '#/paths/~1a~1{b}' */
function pathRef(path: string): string {
  return `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * The served document from the hand-kept one (`openapi.json`), which writes each API operation
 * once, under one mount and with `.json`. Each `.json` path item gets its twin without the
 * suffix (the same operation, `operationId` without `Json`, a note on content negotiation), and
 * every API path item a `$ref` under each other mount the dialects serve: the aliases are made
 * from the same mounts the routes are, so the two cannot drift.
 * @example withAliases(doc).paths['/restcomm/2012-04-24/Accounts/{AccountSid}/Calls'] // { $ref: '#/paths/~1call~1…~1Calls' }
 */
export function withAliases(source: OpenApiDoc): OpenApiDoc {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(source.paths)) {
    paths[path] = item;
    if (splitMount(path) === undefined || !path.endsWith('.json') || '$ref' in item) continue;
    const twin = structuredClone(item);
    for (const method of METHODS) {
      const op = twin[method] as { operationId?: string; description?: string } | undefined;
      if (op === undefined) continue;
      if (op.operationId !== undefined) op.operationId = op.operationId.replace(/Json$/, '');
      op.description ??= SUFFIX_NOTE;
    }
    paths[path.slice(0, -'.json'.length)] = twin;
  }
  const aliases: Record<string, Record<string, unknown>> = {};
  for (const mount of MOUNTS) {
    for (const path of Object.keys(paths)) {
      const at = splitMount(path);
      if (at === undefined || at.mount === mount || '$ref' in (paths[path] as object)) continue;
      const alias = `${mount}${at.rest}`;
      if (paths[alias] === undefined) aliases[alias] = { $ref: pathRef(path) };
    }
  }
  return { ...source, paths: { ...paths, ...aliases } };
}
