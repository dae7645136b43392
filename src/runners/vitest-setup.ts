import { startForRun, stopForRun } from './run';

/**
 * `globalSetup: ['callrec-emulator/vitest/setup']`: one emulator for the run, its URL handed to
 * the workers through the environment they inherit; the function it returns is the teardown.
 * Options: the `CALLREC_SEED` environment variable; for more, call `startForRun(options)` from
 * a globalSetup of your own. The module is the function itself (`export =`): vitest reads a
 * CommonJS module's `module.exports` as its default export, which must be a function.
 */
export = async function globalSetup(): Promise<() => Promise<void>> {
  const seed = process.env['CALLREC_SEED'];
  await startForRun(seed === undefined || seed === '' ? {} : { seed });
  return stopForRun;
};
