#!/usr/bin/env node
// Writes the OpenAPI document as the emulator serves it (openapi.json plus its mount and suffix
// aliases, see src/format/openapi.ts) to the path given, for linters and code generators.
// Needs the build (dist/).
const { writeFileSync } = require('node:fs');
const { servedOpenApi } = require('../dist/admin/health');

const out = process.argv[2];
if (out === undefined) {
  process.stderr.write('usage: node scripts/openapi.js <file>\n');
  process.exit(2);
}
writeFileSync(out, servedOpenApi());
