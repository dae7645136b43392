/** The package's programmatic entry: start an emulator in-process, or compose the app yourself. */

export { type AppDeps, createApp, type EmulatorApp } from './app';
export { type Config, loadConfig } from './config';
export {
  type AccountView,
  type EmulatorHandle,
  type EmulatorOptions,
  type JournalQuery,
  startEmulator,
} from './emulator';
export { ApiError, messages } from './errors';
export type { FaultSpec } from './harness/faults';
export type { JournalEntry } from './harness/journal';
export { type RunningEmulator, serve } from './server';
export { World, type WorldSpec } from './store/world';
