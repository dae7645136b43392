import { ApiError, messages } from '../errors';
import type { AdminHandler } from './context';
import type { AdminReply } from './reply';

/** A file of the inspector (`/__admin/ui`), held in memory from start-up. */

/**
 * The page may load and ask only what this emulator serves: no CDN, no fonts from elsewhere, no
 * request to another host, and the browser enforces it. `blob:` lets an exported state download.
 */
const POLICY =
  "default-src 'self'; img-src 'self' data: blob:; media-src 'self'; connect-src 'self'; " +
  "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

function asset(ctx: Parameters<AdminHandler>[0], name: string): AdminReply {
  const found = ctx.ui.get(name);
  if (found === undefined) {
    throw new ApiError(404, ctx.ui.size === 0 ? messages.noUi : messages.noUiFile(name));
  }
  return {
    status: 200,
    bytes: found.bytes,
    type: found.type,
    // Served from memory, small: asked again on each load, so an upgrade never shows a stale page.
    headers: { 'Content-Security-Policy': POLICY, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' },
  };
}

/** `GET /__admin/ui`: the inspector's page. */
export const uiPage: AdminHandler = (ctx) => asset(ctx, 'index.html');

/** `GET /__admin/ui/{file}`: its modules and style sheet. */
export const uiFile: AdminHandler = (ctx, req) => asset(ctx, req.params['file'] ?? '');
