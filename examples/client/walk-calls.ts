/**
 * A production-style client: it walks every page of an account's calls through `next_page_uri`
 * and counts them against `total`. The links are printed as production prints them, without the
 * `/call` prefix and the `.json` suffix, so the client adds both, as a client of production must.
 *
 * Run: npx --no-install ts-node examples/client/walk-calls.ts URL ACCOUNT_SID TOKEN (or import walkCalls).
 */
export interface WalkResult {
  total: number;
  seen: number;
  pages: number;
  sids: string[];
}

interface CallsPage {
  total: number;
  next_page_uri: string;
  calls: { sid: string }[];
}

/** The path to request for a printed page link: `/call` in front, `.json` before the query. */
export function requestable(printed: string): string {
  const [path, query] = printed.split('?');
  return `/call${path}.json${query === undefined ? '' : `?${query}`}`;
}

export async function walkCalls(
  baseUrl: string,
  accountSid: string,
  token: string,
  pageSize = 50,
): Promise<WalkResult> {
  const headers = { Authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` };
  let path = `/call/2012-04-24/Accounts/${accountSid}/Calls.json?PageSize=${pageSize}`;
  const result: WalkResult = { total: 0, seen: 0, pages: 0, sids: [] };
  for (;;) {
    const res = await fetch(baseUrl + path, { headers });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as CallsPage;
    result.total = page.total;
    result.pages++;
    result.seen += page.calls.length;
    result.sids.push(...page.calls.map((c) => c.sid));
    // "null" is a string here, as production writes it: a client testing for JSON null loops.
    if (page.next_page_uri === 'null') return result;
    path = requestable(page.next_page_uri);
  }
}

if (require.main === module) {
  const [url, sid, token] = process.argv.slice(2);
  walkCalls(url as string, sid as string, token as string).then(
    (r) => process.stdout.write(`${r.seen} calls in ${r.pages} pages; total ${r.total}\n`),
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    },
  );
}
