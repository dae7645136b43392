import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import request from 'supertest';
import { adminRoutes, apiRoutes, DIALECTS, routes } from '../../src/format/uris';
import { makeEmulator } from '../support/app';
import { check, violations } from '../support/openapi';

const file = readFileSync(resolve(__dirname, '..', '..', 'openapi.json'), 'utf8');
const doc = JSON.parse(file) as { openapi: string; paths: Record<string, unknown> };

describe('openapi.json', () => {
  test('is OpenAPI 3.1, served at /__admin/openapi.json as kept in the repository', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const { app } = makeEmulator();
    const res = await request(app).get('/__admin/openapi.json');
    expect(res.status).toBe(200);
    expect(res.text).toBe(file);
  });

  test('lists every route the emulator serves', () => {
    const asDoc = (p: string) =>
      p
        .replace(':accountSid', '{AccountSid}')
        .replace(':accountRef', '{AccountRef}')
        .replace(':callSid', '{CallSid}')
        .replace(':recordingSid', '{RecordingSid}')
        .replace(':sid', '{sid}')
        .replace(':id', '{id}')
        .replace(':file', '{file}');
    // Every mount of every dialect: the Restcomm dialect's are path items referring to /call's.
    const mounted = Object.values(DIALECTS).flatMap((d) => d.mounts.flatMap((m) => Object.values(apiRoutes(m))));
    for (const pattern of [...Object.values(routes), ...mounted, ...Object.values(adminRoutes)]) {
      const shown = asDoc(pattern);
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
    check('POST', '/call/2012-04-24/Accounts/AC1/Calls.json', 200, 'application/json', '{}');
    const found = violations.splice(before);
    expect(found).toHaveLength(3);
    expect(found[0]).toContain('Calls.json: 200 body');
    expect(found[1]).toContain('status 302 is not documented');
    expect(found[2]).toContain('no such operation');
  });
});
