/** The package's programmatic entry: start an emulator in-process, or compose the app yourself. */
export { startEmulator, type EmulatorHandle, type EmulatorOptions, type AccountView, type JournalQuery } from './emulator';
export { createApp, type AppDeps, type EmulatorApp } from './app';
export { loadConfig, type Config } from './config';
export { serve, type RunningEmulator } from './server';
export { World, type WorldSpec } from './store/world';
export { ApiError, messages } from './errors';
export type { JournalEntry } from './harness/journal';
export type { FaultSpec } from './harness/faults';
