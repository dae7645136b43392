/**
 * `npm run bench [-- --smoke] [-- --only GROUP]`: the emulator against a bare node:http server
 * writing the same bytes, in alternating rounds, plus the scale runs, one scenario a file
 * (bench/scenarios/), their shared mode and helpers in bench/context.ts. Loopback only; every
 * process it starts is stopped before it exits.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { children, log, OUT, rows, scratch, smoke } from './context';
import { ROOT } from './lib';
import { renderMarkdown, renderSvg } from './report';
import { clockMoves } from './scenarios/clock-moves';
import { data } from './scenarios/data';
import { firstPages } from './scenarios/first-pages';
import { inspector } from './scenarios/inspector';
import { intercept } from './scenarios/intercept';
import { sandboxes } from './scenarios/sandboxes';
import { scale } from './scenarios/scale';
import { throughput } from './scenarios/throughput';
import { twilio } from './scenarios/twilio';
import { walkWrites } from './scenarios/walk-writes';
import { workers } from './scenarios/workers';
import { writeLog } from './scenarios/write-log';

async function main(): Promise<void> {
  const started = Date.now();
  // `--only NAME` runs one group (to check a change), printed and never written over the results.
  const groups = {
    throughput,
    workers,
    scale,
    data,
    walkWrites,
    firstPages,
    clockMoves,
    sandboxes,
    inspector,
    writeLog,
    twilio,
    intercept,
  };
  const at = process.argv.indexOf('--only');
  const only = at < 0 ? null : (process.argv[at + 1] ?? '');
  if (only !== null && !(only in groups)) throw new Error(`--only takes one of ${Object.keys(groups).join(', ')}`);
  try {
    for (const [name, run] of Object.entries(groups)) if (only === null || only === name) await run();
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    // Fixtures and bodies were written for this run only.
    rmSync(scratch, { recursive: true, force: true });
  }
  const meta = {
    date: new Date().toISOString(),
    mode: smoke ? 'smoke' : 'full',
    node: process.version,
    cpus: `${require('node:os').cpus().length} × ${require('node:os').cpus()[0]?.model ?? '?'}`,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  const md = renderMarkdown(rows, meta);
  if (only !== null) {
    process.stdout.write(md);
    return;
  }
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'latest.md'), md);
  writeFileSync(join(OUT, 'latest.svg'), renderSvg(rows));
  writeFileSync(join(OUT, 'latest.json'), `${JSON.stringify({ meta, rows }, null, 2)}\n`);
  if (!smoke) {
    const doc = resolve(ROOT, 'BENCHMARKS.md');
    const text = readFileSync(doc, 'utf8');
    const marked = /<!-- results:start -->[\s\S]*<!-- results:end -->/;
    if (marked.test(text))
      writeFileSync(doc, text.replace(marked, `<!-- results:start -->\n${md}\n<!-- results:end -->`));
  }
  process.stdout.write(md);
}

main().catch((err: unknown) => {
  log(`bench failed: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
});
