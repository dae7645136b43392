import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import request from 'supertest';
import { type OpenApiDoc, withAliases } from '../../src/format/openapi';
import { API_VERSION, adminRoutes, apiRoutes, DIALECTS, routes } from '../../src/format/uris';
import { asDocPath, makeEmulator } from '../support/app';
import { check, violations } from '../support/openapi';

const kept = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'openapi.json'), 'utf8')) as OpenApiDoc;
const doc = withAliases(kept) as OpenApiDoc & { openapi: string };

describe('openapi.json', () => {
  test('is OpenAPI 3.1, served at /__admin/openapi.json as kept in the repository plus its aliases', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const { app } = makeEmulator();
    const res = await request(app).get('/__admin/openapi.json');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual(doc);
  });

  test('keeps each API operation once: its aliases under other mounts and without .json are made', () => {
    const api = (paths: object) => Object.keys(paths).filter((p) => p.includes(`/${API_VERSION}/`));
    // One kept item an operation: none is a $ref, and none is the suffix-less twin of another.
    for (const path of api(kept.paths)) {
      expect('$ref' in (kept.paths[path] as object)).toBe(false);
      expect(kept.paths[`${path}.json`]).toBeUndefined();
    }
    // Served: every kept .json item has its twin, and every API item is under every mount.
    const served = api(doc.paths);
    for (const path of api(kept.paths).filter((p) => p.endsWith('.json')))
      expect(served).toContain(path.slice(0, -'.json'.length));
    const mounts = [...new Set(Object.values(DIALECTS).flatMap((d) => d.mounts))];
    const rest = (p: string) => p.slice(p.indexOf(`/${API_VERSION}/`));
    for (const path of served) for (const mount of mounts) expect(served).toContain(`${mount}${rest(path)}`);
    // Twins say what the suffix changes, and keep their operation's own words where it has some.
    const twin = doc.paths['/call/2012-04-24/Accounts/{AccountSid}/Calls'] as {
      get: { operationId: string; description: string };
    };
    expect(twin.get.operationId).toBe('getCalls');
    expect(twin.get.description).toContain('406');
    const operationIds = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).flatMap((op) => op.operationId ?? []),
    );
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  test('lists every route the emulator serves', () => {
    // Every mount of every dialect: the Restcomm dialect's are path items referring to /call's.
    const mounted = Object.values(DIALECTS).flatMap((d) => d.mounts.flatMap((m) => Object.values(apiRoutes(m))));
    for (const pattern of [...Object.values(routes), ...mounted, ...Object.values(adminRoutes)]) {
      const shown = asDocPath(pattern);
      const variants = shown.includes('{.json}')
        ? [shown.replace('{.json}', '.json'), shown.replace('{.json}', '')]
        : [shown];
      for (const v of variants) expect(Object.keys(doc.paths)).toContain(v);
    }
  });

  test('the response check catches a body the document refuses, and an undocumented status', () => {
    const before = violations.length;
    check('GET', '/call/2012-04-24/Accounts/AC1/Calls.json', 200, 'application/json', '{"page":"0"}');
    check('GET', '/__admin/health', 302, 'text/html', '');
    check('DELETE', '/call/2012-04-24/Accounts/AC1/Calls.json', 200, 'application/json', '{}');
    const found = violations.splice(before);
    expect(found).toHaveLength(3);
    expect(found[0]).toContain('Calls.json: 200 body');
    expect(found[1]).toContain('status 302 is not documented');
    expect(found[2]).toContain('no such operation');
  });
});
