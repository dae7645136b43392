/** The package's programmatic entry: start an emulator in-process, drive one from any process, or compose the app yourself. */

export type { CallInput } from './admin/call-input';
export type { ClockView } from './admin/clock';
export type { JournalEntry } from './admin/journal-views';
export type { RecordingInput } from './admin/recording-input';
export { type AppDeps, createApp, type EmulatorApp } from './app';
export type { CallbackEntry } from './callbacks/callback-desk';
export {
  type AccountView,
  type CallbackFilter,
  connect,
  type EmulatorClient,
  type FaultView,
  type JournalQuery,
  type SandboxHandle,
  type SandboxState,
  type SandboxView,
} from './client';
export { type Config, loadConfig } from './config';
export { type EmulatorHandle, type EmulatorOptions, type InterceptView, startEmulator } from './emulator';
export { ApiError, messages, ValidationError } from './errors';
export type { FaultSpec } from './faults/faults';
export type { RestcommAccount } from './format/account';
export type { Call } from './format/call';
export type { Notification } from './format/notification';
export type { Recording } from './format/recording';
export type { DumpReport } from './input/restcomm-dump';
export type { WalkReport } from './journal/walk-report';
export { type RunningEmulator, serve } from './server';
export { World, type WorldSpec } from './store/world';
