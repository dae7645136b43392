import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The package version, read once from package.json (one level above both src/ and dist/). */
export const VERSION: string = (
  JSON.parse(readFileSync(resolve(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;
