/**
 * twilio-node, unchanged, against the emulator in Restcomm's dialect: the custom HTTP client its
 * maintainers advise for a mock (a `RequestClient` that sends each request elsewhere) moves every
 * request from api.twilio.com's 2010-04-01 API to the emulator's 2012-04-24 one; no private field
 * is set. The walk stops at the last page's `next_page_uri`, which production writes as the
 * string "null": twilio-node makes a URL of it like any link, and requesting it is a 404.
 *
 * Run: npx --no-install ts-node examples/client/twilio-walk.ts URL ACCOUNT_SID AUTH_TOKEN
 * (the emulator started with --dialect restcomm).
 */
import twilio from 'twilio';

/** A twilio client whose requests go to the emulator at `base`. */
export function emulatedTwilio(base: string, accountSid: string, authToken: string) {
  const http = new twilio.RequestClient();
  const send = http.request.bind(http);
  const moved = (uri: string) =>
    uri
      .replace(/^https:\/\/api\.twilio\.com\/2010-04-01\//, `${base}/2012-04-24/`)
      .replace(/^https:\/\/api\.twilio\.com\//, `${base}/`);
  http.request = (opts) => send({ ...opts, uri: moved(opts.uri) });
  return twilio(accountSid, authToken, { httpClient: http });
}

/** What the walk reads of a page (twilio's CallPage, and the page its nextPage() resolves to). */
interface WalkPage {
  instances: { sid: string }[];
  nextPageUrl?: string;
  nextPage(): Promise<WalkPage> | undefined;
}

/** Every call's sid, page by page through next_page_uri. */
export async function walkWithTwilio(client: ReturnType<typeof emulatedTwilio>, pageSize = 50): Promise<string[]> {
  const sids: string[] = [];
  let page: WalkPage = await client.calls.page({ pageSize });
  sids.push(...page.instances.map((c) => c.sid));
  // The last page's link is "null" (a string), made https://api.twilio.com/null: stop there.
  while (page.nextPageUrl !== undefined && !page.nextPageUrl.endsWith('/null')) {
    const next = await page.nextPage();
    if (next === undefined) break;
    page = next;
    sids.push(...page.instances.map((c) => c.sid));
  }
  return sids;
}

if (require.main === module) {
  const [base, sid, token] = process.argv.slice(2) as [string, string, string];
  void walkWithTwilio(emulatedTwilio(base, sid, token)).then((sids) => console.log(`walked ${sids.length} calls`));
}
