#!/usr/bin/env node
// Runs the example sandbox suite (examples/jest-sandboxes: 4 jest workers, a sandbox per test)
// N times in a row, stopping at the first failure: the check that sandboxes keep parallel
// tests apart run after run, not once by luck. Usage: node scripts/sandbox-suite.js [N=20]
const { spawnSync } = require('node:child_process');
const { resolve } = require('node:path');

const root = resolve(__dirname, '..');
const times = Number(process.argv[2] ?? 20);
if (!Number.isInteger(times) || times < 1) {
  console.error(`usage: node scripts/sandbox-suite.js [N]: N must be a whole number >= 1, got ${process.argv[2]}`);
  process.exit(2);
}
const jest = resolve(root, 'node_modules', 'jest', 'bin', 'jest.js');
const config = resolve(root, 'examples', 'jest-sandboxes', 'jest.config.js');
const started = performance.now();
for (let run = 1; run <= times; run++) {
  const t0 = performance.now();
  // CALLREC_URL emptied: each run starts (and stops) an emulator of its own, as CI would.
  const r = spawnSync(process.execPath, [jest, '-c', config, '--silent'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CALLREC_URL: '' },
  });
  const summary = /Tests:\s+(.*)/.exec(r.stderr)?.[1] ?? 'no summary';
  console.log(`run ${run}/${times}: ${r.status === 0 ? 'passed' : 'FAILED'} (${summary}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (r.status !== 0) {
    process.stderr.write(r.stderr);
    process.exit(1);
  }
}
console.log(`${times} runs in a row passed, ${((performance.now() - started) / 1000).toFixed(0)} s`);
