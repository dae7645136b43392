import { stopForRun } from './run';

/** The preset's globalTeardown: the emulator globalSetup started is stopped. */
export default async function globalTeardown(): Promise<void> {
  await stopForRun();
}
