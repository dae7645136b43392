import { startEmulator } from 'callrec-emulator';

/** Starts the emulator once, on a free port, and hands its URL and an account to the tests. */
export default async function globalSetup(): Promise<void> {
  const emulator = await startEmulator({ seed: 'example-suite' });
  const account = emulator.accounts.find((a) => a.calls > 100);
  if (account === undefined) throw new Error('the default fixtures have a large account');
  process.env['CALLREC_URL'] = emulator.url;
  process.env['CALLREC_ACCOUNT'] = account.sid;
  process.env['CALLREC_TOKEN'] = account.token;
  // globalTeardown runs in the same process: keep the handle there.
  (globalThis as { callrecEmulator?: typeof emulator }).callrecEmulator = emulator;
}
