import type { EnvelopeBuilder } from '../envelope';

/**
 * A page link as Twilio prints it: the list's path, the filters as the request gave them, then
 * `PageSize`, `Page` and, past the first page, the `PageToken` cursor. Values are
 * percent-encoded, as Twilio encodes `+` in a phone number.
 * @example twilioPageUri('/2010-04-01/Accounts/AC1/Calls.json', [['Status', 'busy']], 50, 1, 'PACA9') // '/2010-04-01/Accounts/AC1/Calls.json?Status=busy&PageSize=50&Page=1&PageToken=PACA9'
 */
export function twilioPageUri(
  path: string,
  params: readonly (readonly [string, string])[],
  pageSize: number,
  page: number,
  token?: string,
): string {
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  query.push(`PageSize=${pageSize}`, `Page=${page}`);
  if (token !== undefined) query.push(`PageToken=${token}`);
  return `${path}?${query.join('&')}`;
}

/**
 * Twilio's envelope: exactly `{<list>, end, first_page_uri, next_page_uri, page, page_size,
 * previous_page_uri, start, uri}` in that (alphabetical) order, the list's key among them. No
 * `total`, `num_pages` or `last_page_uri`: the helper libraries take the records from the one key
 * outside their meta keys, and twilio-python fails on a second. `start` and `end` are numbers,
 * 0-based and inclusive (an empty page ends where it starts); a missing link is JSON `null`.
 * Links are relative to the host: the libraries prepend their base URL. The next link's cursor is
 * `PA` and the page's last sid, the previous link's `PB` and its first.
 * @example twilioEnvelope({ key: 'calls', window, uri: '/2010-04-01/Accounts/AC1/Calls.json', sidAt }).head // '{"calls":['
 */
export const twilioEnvelope: EnvelopeBuilder = (p) => {
  const w = p.window;
  const params = p.params ?? [];
  const link = (page: number, token?: string) => twilioPageUri(p.uri, params, w.pageSize, page, token);
  // An empty page past a cursor has no first sid to step back from: it names no previous page.
  const fields: [string, unknown][] = [
    ['end', w.count === 0 ? w.start : w.start + w.count - 1],
    ['first_page_uri', link(0)],
    ['next_page_uri', w.hasNext && w.count > 0 ? link(w.page + 1, `PA${p.sidAt(w.count - 1)}`) : null],
    ['page', w.page],
    ['page_size', w.pageSize],
    ['previous_page_uri', w.hasPrevious && w.count > 0 ? link(w.page - 1, `PB${p.sidAt(0)}`) : null],
    ['start', w.start],
    ['uri', link(w.page, p.pageToken)],
  ];
  const before = fields.filter(([k]) => k < p.key);
  const after = fields.filter(([k]) => k > p.key);
  const members = (list: [string, unknown][]) => list.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  const head = `{${[...members(before), `${JSON.stringify(p.key)}:[`].join(',')}`;
  const tail = after.length === 0 ? ']}' : `],${members(after).join(',')}}`;
  return { head, tail };
};
