import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';

/**
 * Twilio's own OpenAPI document of its 2010-04-01 API, as `@twilio/cli-core` ships it: what every
 * answer of `--dialect twilio` is checked against (openapi.ts hands it every `/2010-04-01` path).
 * The document is OpenAPI 3.0: its `nullable` becomes a JSON Schema `null` type. Twilio's
 * schemas require nothing; here every property of a resource is required and no other allowed,
 * as the dialect writes every one of them (null where unknown).
 */
export const TWILIO_OAS_FILE = require.resolve('@twilio/cli-core/src/services/twilio-api/twilio_api_v2010.json');

type Node = Record<string, unknown>;

/** OpenAPI 3.0's `nullable` as JSON Schema, and the resources closed and complete. */
function asJsonSchema(node: unknown, resource = false): unknown {
  if (Array.isArray(node)) return node.map((n) => asJsonSchema(n));
  if (node === null || typeof node !== 'object') return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node as Node)) {
    if (k === 'nullable' || k === 'x-twilio' || k === 'description') continue;
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Node).map(([p, s]) => [p, asJsonSchema(s)]))
        : asJsonSchema(v);
  }
  if (resource && out['properties'] !== undefined) {
    out['required'] = Object.keys(out['properties'] as Node);
    out['additionalProperties'] = false;
  }
  if ((node as Node)['nullable'] !== true) return out;
  if (typeof out['$ref'] === 'string') return { anyOf: [{ $ref: out['$ref'] }, { type: 'null' }] };
  if (Array.isArray(out['enum'])) out['enum'] = [...(out['enum'] as unknown[]), null];
  if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
  return out;
}

const raw = JSON.parse(readFileSync(TWILIO_OAS_FILE, 'utf8')) as {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};
const schemas = Object.fromEntries(
  Object.entries(raw.components.schemas).map(([name, s]) => [name, asJsonSchema(s, name.startsWith('api.v2010.'))]),
);
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
ajv.addSchema({ $id: 'twilio', components: { schemas } });

/** Twilio's error body, exactly: what its helper libraries read into a RestException. */
const validateError = ajv.compile({
  type: 'object',
  required: ['code', 'message', 'more_info', 'status'],
  additionalProperties: false,
  properties: {
    code: { type: 'integer' },
    message: { type: 'string' },
    more_info: { type: 'string', pattern: '^https://www\\.twilio\\.com/docs/errors/\\d+$' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
  },
});

/** The list envelope closed: Twilio's meta keys and the one list key, nothing else. */
function closeList(schema: unknown): unknown {
  const s = schema as Node;
  if (s['type'] !== 'object' || s['properties'] === undefined) return s;
  return { ...s, required: Object.keys(s['properties'] as Node), additionalProperties: false };
}

const templates = Object.keys(raw.paths).map((path) => ({
  path,
  re: new RegExp(`^${path.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * Checks one answer of the dialect; returns what is wrong, or null. A recording's audio (no
 * `.json`) is outside the document; any error must be Twilio's error body.
 */
export function checkTwilio(
  method: string,
  path: string,
  status: number,
  contentType: string,
  body: string,
): string | null {
  if (status >= 400) {
    if (body === '' || method === 'HEAD') return null;
    return validateError(JSON.parse(body))
      ? null
      : `${method} ${path}: ${status} body is not Twilio's error: ${ajv.errorsText(validateError.errors)}`;
  }
  if (!path.endsWith('.json'))
    return contentType.startsWith('audio/') ? null : `${method} ${path}: ${status} ${contentType} outside the document`;
  const found = templates.find((t) => t.re.test(path));
  const m = method === 'HEAD' ? 'get' : method.toLowerCase();
  const op = found === undefined ? undefined : raw.paths[found.path]?.[m];
  if (op === undefined) return `${method} ${path}: ${status}, but Twilio's document has no such operation`;
  const response = op.responses[String(status)];
  if (response === undefined) return `${method} ${found!.path}: status ${status} is not in Twilio's document`;
  if (method === 'HEAD' || body === '') return null;
  const schema = response.content?.['application/json']?.schema;
  if (schema === undefined) return `${method} ${found!.path}: ${status} has a body, and the document none`;
  const key = `${found!.path} ${m} ${status}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    const text = JSON.stringify(closeList(asJsonSchema(schema))).replace(/"#\/components\//g, '"twilio#/components/');
    validate = ajv.compile(JSON.parse(text));
    compiled.set(key, validate);
  }
  return validate(JSON.parse(body)) ? null : `${method} ${path}: ${status} body: ${ajv.errorsText(validate.errors)}`;
}
