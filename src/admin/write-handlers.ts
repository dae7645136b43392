import { DELETE_RECORDING_ROUTE, deleteApiRecording } from './api-deletes';
import type { AdminHandler } from './context';
import { CREATE_CALL_ROUTE, createCall } from './created-calls';
import { ADMIN_ROUTES, type AdminRoute } from './routes';
import {
  createTwilioCall,
  deleteTwilioCall,
  deleteTwilioRecording,
  TWILIO_ROUTES,
  updateTwilioCall,
} from './twilio-writes';

/** A route's key in the write log: its method and path pattern. */
export const routeKey = (r: AdminRoute) => `${r.method} ${r.path}`;

/** Whether a route changes state: every POST, PUT and DELETE but the queries sent as a body. */
export function isWrite(r: AdminRoute): boolean {
  return r.method !== 'GET' && r.read !== true;
}

/**
 * The handlers the write log applies, by route key: every admin write, and a create of a call.
 * Apart from the routes' mounting (mount.ts), which needs express: the log is made at start-up,
 * express only when a request first needs it.
 */
export const WRITE_HANDLERS: ReadonlyMap<string, AdminHandler> = new Map([
  ...ADMIN_ROUTES.filter(isWrite).map((r) => [routeKey(r), r.handler] as const),
  // The API's writes: creating a call (routes/create-call.ts takes it, the log applies it), and
  // (Restcomm dialect) deleting a recording.
  [CREATE_CALL_ROUTE, createCall] as const,
  [DELETE_RECORDING_ROUTE, deleteApiRecording] as const,
  // Twilio's dialect: a call created, updated or deleted, a recording deleted.
  [TWILIO_ROUTES.create, createTwilioCall] as const,
  [TWILIO_ROUTES.update, updateTwilioCall] as const,
  [TWILIO_ROUTES.deleteCall, deleteTwilioCall] as const,
  [TWILIO_ROUTES.deleteRecording, deleteTwilioRecording] as const,
]);
