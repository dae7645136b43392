#!/usr/bin/env node
/**
 * `npm run dev` (as `exec node scripts/dev.js`): build once, then rebuild on change (tsc --watch) and restart the server on every
 * new build (node --watch), as one process tree. A shell line with `&` left both watchers running
 * when npm got SIGTERM (npm signals only its direct child); here the signal, or either watcher
 * ending, stops both before this process exits. Arguments go to the server.
 */
const { spawn, spawnSync } = require('node:child_process');

const tsc = require.resolve('typescript/bin/tsc');
const project = ['-p', 'tsconfig.build.json'];
const built = spawnSync(process.execPath, [tsc, ...project], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const children = [
  spawn(process.execPath, [tsc, ...project, '--watch', '--preserveWatchOutput'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
  spawn(process.execPath, ['--watch', 'dist/cli.js', ...process.argv.slice(2)], { stdio: 'inherit' }),
];
const running = new Set(children);
let exitCode = null;

function stop(code) {
  if (exitCode !== null) return;
  exitCode = code;
  for (const child of running) child.kill('SIGTERM');
  if (running.size === 0) process.exit(code);
}

for (const child of children) {
  child.on('exit', (code) => {
    running.delete(child);
    stop(code ?? 0);
    if (running.size === 0) process.exit(exitCode ?? 0);
  });
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));
// The script runs as `exec node …`, so npm signals this process itself. Should whatever started
// it die without a signal reaching here, this process is handed to another parent: stop then too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop(0);
}, 500).unref();
