import type { EmulatorHandle } from 'callrec-emulator';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { callrecEmulator?: EmulatorHandle }).callrecEmulator?.close();
}
