/** The package's programmatic entry: build the app in-process, or start a listening emulator. */
export { createApp, type AppDeps } from './app';
export { loadConfig, type Config } from './config';
export { startEmulator, type RunningEmulator } from './server';
export { World, type WorldSpec } from './store/world';
export { ApiError, messages } from './errors';
