import { ApiError, messages } from '../errors';
import type { RecordFilter } from '../store/table-contracts';
import { buildFilter, type FilterDefs } from './filters';
import { TWILIO_BAD_PARAMETER } from './twilio-filters';

/** Twilio's code for a PageToken it cannot read. */
export const TWILIO_BAD_TOKEN = 21481;

/** Twilio's page size bounds and default. */
export const TWILIO_PAGE_SIZE = { min: 1, max: 1000, default: 50 } as const;

/** A cursor: the page after the record with this sid (`PA`), or the page before it (`PB`). */
export interface TwilioCursor {
  before: boolean;
  sid: string;
}

/** A Twilio list request, read and checked. */
export interface TwilioQuery<R> {
  pageSize: number;
  /** The client's page number: Twilio prints it back, and it selects nothing. */
  page: number;
  cursor: TwilioCursor | null;
  /** The PageToken as given, which the page's own `uri` repeats. */
  pageToken: string | undefined;
  filter: RecordFilter<R> | null;
  /** The filters as given, in order, which every link of the page repeats. */
  params: [string, string][];
}

const bad = (message: string, code = TWILIO_BAD_PARAMETER) => new ApiError(400, message, {}, code);

/**
 * Reads a Twilio list's query: `PageSize` 1 to 1000 (default 50), `Page`, `PageToken` (`PA` or
 * `PB` and a sid of the list's kind, `sidPrefix`), and the list's filters (`defs`); other
 * names are ignored, as Twilio ignores them. The first value of a name counts. `Page` past 0
 * without a token is refused, as the live service refuses it (twilio-python #395): the page a
 * client is on is known by its cursor alone.
 * @example parseTwilioQuery('Status=busy&PageSize=20', TWILIO_CALL_FILTERS, 'CA') // { pageSize: 20, page: 0, cursor: null, params: [['Status', 'busy']], … }
 */
export function parseTwilioQuery<R>(rawQuery: string, defs: FilterDefs<R>, sidPrefix: string): TwilioQuery<R> {
  const values = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(rawQuery)) if (!values.has(name)) values.set(name, value);
  const rawSize = values.get('PageSize');
  const pageSize = rawSize === undefined ? TWILIO_PAGE_SIZE.default : Number(rawSize);
  if (rawSize !== undefined && (!/^\d{1,4}$/.test(rawSize) || pageSize < 1 || pageSize > TWILIO_PAGE_SIZE.max)) {
    throw bad(messages.twilioPageSize(rawSize));
  }
  const rawPage = values.get('Page');
  if (rawPage !== undefined && !/^\d{1,9}$/.test(rawPage)) throw bad(messages.twilioPage(rawPage));
  const page = rawPage === undefined ? 0 : Number(rawPage);
  const pageToken = values.get('PageToken');
  let cursor: TwilioCursor | null = null;
  if (pageToken !== undefined) {
    const m = new RegExp(`^P([AB])(${sidPrefix}[0-9a-fA-F]{32})$`).exec(pageToken);
    if (m === null) throw bad(messages.twilioPageToken(pageToken, sidPrefix), TWILIO_BAD_TOKEN);
    cursor = { before: m[1] === 'B', sid: m[2] as string };
  } else if (page > 0) {
    throw bad(messages.twilioPageTokenRequired);
  }
  const params: [string, string][] = [...values].filter(([name]) => Object.hasOwn(defs, name));
  const built = buildFilter(defs, new Map(params));
  const filter = built === null ? null : { ...built, key: `twilio:${built.key}` };
  return { pageSize, page, cursor, pageToken, filter, params };
}
