import type { RenderCache } from '../cache/render-cache';
import type { Dialect } from '../format/uris';
import type { PagingProfile } from '../query/paging';
import type { ListCaches } from './list-caches';

/** What the list routes need from the app's settings. */
export interface ListSettings {
  paging: PagingProfile;
  maxPageSize: number | null;
  /** Base of `file_uri`: the public URL and the dialect's mount. */
  fileBase: string;
  dialect: Dialect;
  cache: RenderCache;
  /** Turn every warning into a 400. */
  strict: boolean;
  /** The server's time zone, in which StartTime and EndTime name days. */
  serverZone: string;
  /** What the list routes keep between requests: the app's own (see list-caches.ts). */
  caches: ListCaches;
}
