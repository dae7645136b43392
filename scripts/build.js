#!/usr/bin/env node
// `npm run build`: compiles into a folder beside dist/ and then swaps it in, so that a server
// started from this checkout keeps its files while the suite rebuilds (a build that emptied
// dist/ first left it failing on every module it loads lazily). A failed compile leaves dist/ as
// it was.
const { execFileSync } = require('node:child_process');
const { existsSync, renameSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const dist = join(root, 'dist');
const next = join(root, `.dist-next-${process.pid}`);
const old = join(root, `.dist-old-${process.pid}`);
const tsc = require.resolve('typescript/bin/tsc');

try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', next], {
    stdio: 'inherit',
  });
} catch {
  rmSync(next, { recursive: true, force: true });
  process.exit(1);
}
// Two renames: the moment between them is the only one with no dist/.
if (existsSync(dist)) renameSync(dist, old);
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
