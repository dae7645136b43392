import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import twilio from 'twilio';
import ts from 'typescript';
import { type EmulatorHandle, startEmulator } from '../../src/emulator';
import { messages } from '../../src/errors';

/**
 * A real third-party client, unchanged: the `twilio` helper library, given only a base URL, an
 * API version and credentials (AccountSid:AuthToken), walking both lists by `next_page_uri`.
 * The Restcomm dialect serves the servlet path `/2012-04-24/…` on which the calls list prints its
 * links (and the recordings list, printing the request path, follows), so links resolve against
 * the bare base URL.
 */
function twilioAt(url: string, sid: string, token: string) {
  const client = twilio(sid, token);
  client.api.baseUrl = url;
  client.api.v2010._version = '2012-04-24';
  return client;
}

/** What the tests use of twilio's calls and recordings lists, which share it. */
interface TwilioPage {
  instances: { sid: string }[];
  nextPageUrl?: string;
  nextPage(): Promise<TwilioPage> | undefined;
}
interface TwilioList {
  page(params: { pageSize: number }): Promise<TwilioPage>;
  // Typed as returning void by the library; it returns the promise of the walk.
  each(params: { pageSize: number }, callback: (item: { sid: string }) => void): Promise<void>;
}
type Client = ReturnType<typeof twilioAt>;
const LISTS: [string, (c: Client) => TwilioList][] = [
  ['Calls', (c) => c.calls as unknown as TwilioList],
  ['Recordings', (c) => c.recordings as unknown as TwilioList],
];

/** Every sid of a list in its default order, in one request. */
async function allSids(em: EmulatorHandle, sid: string, token: string, list: string): Promise<string[]> {
  const res = await fetch(`${em.url}/restcomm/2012-04-24/Accounts/${sid}/${list}.json?PageSize=1000`, {
    headers: { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` },
  });
  const body = (await res.json()) as Record<string, { sid: string }[]>;
  return (body[list.toLowerCase()] ?? []).map((r) => r.sid);
}

describe.each(['production', 'documented'] as const)(
  'twilio-node against --dialect restcomm --strict, paging %s',
  (paging) => {
    let em: EmulatorHandle;
    beforeAll(async () => {
      em = await startEmulator({ dialect: 'restcomm', strict: true, paging, seed: 'twilio' });
    });
    afterAll(async () => {
      await em.close();
    });

    // Every account of the default data: 448 and 50 calls (50 at 50 a page ends on an empty page in
    // production paging), 1 call, and none.
    const accounts = () => em.accounts;

    test.each(LISTS)(
      '%s: page() and nextPage() walk every page by next_page_uri, in order, once each',
      async (list, of) => {
        for (const a of accounts()) {
          const client = twilioAt(em.url, a.sid, a.token);
          for (const pageSize of [50, 7]) {
            const seen: string[] = [];
            let page = await of(client).page({ pageSize });
            let pages = 1;
            for (;;) {
              seen.push(...page.instances.map((i) => i.sid));
              // Production's "no next page" is the string "null", which twilio resolves like any link.
              if (page.nextPageUrl === undefined || page.nextPageUrl.endsWith('/null')) break;
              page = (await page.nextPage())!;
              pages++;
            }
            expect(seen).toEqual(await allSids(em, a.sid, a.token, list));
            expect(pages).toBeGreaterThanOrEqual(Math.ceil(seen.length / pageSize));
          }
        }
        // --strict refuses any warning: none was earned, so no request was refused.
        const journal = await em.requests({ limit: 1000 });
        expect(journal.filter((r) => r.status !== 200)).toEqual([]);
      },
    );

    test.each(LISTS)(
      '%s: each() visits every record, then follows the "null" link to a 404 that says so',
      async (list, of) => {
        const [a] = accounts();
        const client = twilioAt(em.url, a!.sid, a!.token);
        const seen: string[] = [];
        const walk = of(client).each({ pageSize: 50 }, (item: { sid: string }) => {
          seen.push(item.sid);
        });
        // What a twilio client meets against production too: the last page's next_page_uri is "null".
        await expect(walk).rejects.toMatchObject({ status: 404, message: messages.notFoundNull('GET', '/null') });
        expect(seen).toEqual(await allSids(em, a!.sid, a!.token, list));
      },
    );
  },
);

describe("README's twilio-node example: a custom HTTP client, no private field", () => {
  test('walks every call of each account by next_page_uri and stops at the "null" link, with no request refused', async () => {
    const { emulatedTwilio, walkWithTwilio } = await import('../../examples/client/twilio-walk');
    const em = await startEmulator({ dialect: 'restcomm', strict: true });
    try {
      for (const a of em.accounts) {
        const sids = await walkWithTwilio(emulatedTwilio(em.url, a.sid, a.token), 7);
        expect(sids).toEqual(await allSids(em, a.sid, a.token, 'Calls'));
      }
      const journal = await em.requests({ limit: 1000 });
      expect(journal.length).toBeGreaterThan(10);
      expect(journal.filter((r) => r.status !== 200)).toEqual([]);
    } finally {
      await em.close();
    }
  });
});

describe("README's twilio-node snippet, as printed", () => {
  test("prints every call's sid of the default account, in order, and stops at the last page", async () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const snippet = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((m) => m[1] as string)
      .find((b) => b.includes('twilio.RequestClient'));
    expect(snippet).toBeDefined();
    const em = await startEmulator({ dialect: 'restcomm', strict: true });
    try {
      const body = (snippet as string)
        .replace("import twilio from 'twilio';", '')
        .replaceAll('http://127.0.0.1:8080', em.url);
      const js = ts.transpileModule(`exports.run = (async () => {${body}})();`, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const printed: string[] = [];
      const exported: { run?: Promise<void> } = {};
      new Function('exports', 'twilio', 'console', js)(exported, twilio, { log: (line: string) => printed.push(line) });
      await exported.run;
      const [main] = em.accounts;
      expect(printed).toEqual(await allSids(em, main!.sid, main!.token, 'Calls'));
    } finally {
      await em.close();
    }
  });
});
