import { XMLParser, XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { messages } from '../../src/errors';
import { STREAM_THRESHOLD } from '../../src/routes/send-page';
import { byCalls, makeEmulator } from '../support/app';

type Item = Record<string, any>;
/** An element's children in document order: name and text ('' when empty), or nested children. */
type Children = [string, string | Children][];

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
});

/** Nodes less the indentation between elements (XStream's pretty printing, not content). */
function elements(nodes: Item[]): Item[] {
  return nodes.filter((n) => !('#text' in n && /^\s*$/.test(String(n['#text']))));
}

function childrenOf(all: Item[]): Children {
  const nodes = all.length === 1 && '#text' in (all[0] as Item) ? all : elements(all);
  return nodes.map((node) => {
    const name = Object.keys(node).find((k) => k !== ':@') as string;
    const inner = node[name] as Item[];
    if (name === '#text') return ['#text', String(inner)];
    const text = inner.length === 1 && '#text' in (inner[0] as Item);
    return [name, inner.length === 0 ? '' : text ? String((inner[0] as Item)['#text']) : childrenOf(inner)];
  });
}

/** The answer's one element under RestcommResponse: its name, attributes and children. */
function parse(xml: string): { name: string; attrs: Record<string, string>; children: Children } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml) as Item[];
  expect(doc).toHaveLength(1);
  const root = elements((doc[0] as Item)['RestcommResponse'] as Item[]);
  expect(root).toHaveLength(1);
  const top = root[0] as Item;
  const name = Object.keys(top).find((k) => k !== ':@') as string;
  return { name, attrs: (top[':@'] ?? {}) as Record<string, string>, children: childrenOf(top[name]) };
}

const { app, world } = makeEmulator({
  dialect: 'restcomm',
  accounts: [
    { friendlyName: 'Acme Support Line', calls: 448, recordings: 160 },
    { friendlyName: 'Big', calls: STREAM_THRESHOLD + 200, recordings: 10 },
    { friendlyName: 'Empty', calls: 0, recordings: 0 },
  ],
});
const acme = byCalls(world, 448);
const RC = '/restcomm/2012-04-24/Accounts';
const auth = (a = acme) => basic(a.sid, a.token);
const xmlGet = (path: string, a = acme) => request(app).get(path).set('Authorization', auth(a)).unset('Accept');
const jsonGet = async (path: string, a = acme) =>
  (await request(app).get(path).set('Authorization', auth(a)).set('Accept', 'application/json')).body as Item;

/** What production's XML writes of a call, from the JSON of the same call: names, order, empties. */
function expectedCall(c: Item): Children {
  const text = (v: unknown) => (v === undefined ? '' : String(v));
  const bare = (uri: string) => uri.replace(/\.json$/, '');
  return [
    ['Sid', c['sid']],
    ['InstanceId', c['InstanceId']],
    ['DateCreated', c['date_created']],
    ['DateUpdated', c['date_updated']],
    ['ParentCallSid', ''],
    ['AccountSid', c['account_sid']],
    ['To', c['to']],
    ['From', c['from']],
    ['PhoneNumberSid', c['phone_number_sid']],
    ['Status', c['status']],
    ['StartTime', c['start_time']],
    ['EndTime', text(c['end_time'])],
    ['Duration', text(c['duration'])],
    ['Price', expect.stringMatching(/^\d+\.00$/) as unknown as string],
    ['PriceUnit', c['price_unit']],
    ['Direction', c['direction']],
    ['AnsweredBy', text(c['answered_by'])],
    ['ApiVersion', c['api_version']],
    ['ForwardedFrom', ''],
    ['CallerName', c['caller_name']],
    ['Uri', bare(c['uri'])],
    [
      'SubresourceUris',
      [
        ['Notifications', bare(c['subresource_uris'].notifications)],
        ['Recordings', bare(c['subresource_uris'].recordings)],
      ],
    ],
    // XStream's name coder writes the converter's `Ring_duration` with its underscore doubled.
    ['Ring__duration', text(c['ring_duration'])],
  ];
}

describe('--dialect restcomm: which requests get XML', () => {
  const path = () => `${RC}/${acme.sid}/Calls?PageSize=2`;
  test.each([
    // [Accept, path suffix, expected]
    [undefined, '', 'xml'],
    ['*/*', '', 'xml'],
    ['application/xml', '', 'xml'],
    ['application/*', '', 'xml'],
    ['text/html, */*;q=0.8', '', 'xml'],
    ['application/json', '', 'json'],
    // production looks for "json" anywhere in the header
    ['text/plain, application/json;q=0.1', '', 'json'],
    ['application/xml', '.json', 'json'],
    ['text/html', '.json', 'json'],
    ['text/html', '', 406],
    ['text/xml', '', 406],
    ['application/xml;q=0', '', 406],
  ] as const)('Accept %s on Calls%s: %s', async (accept, suffix, expected) => {
    const url = path().replace('/Calls?', `/Calls${suffix}?`);
    const req = request(app).get(url).set('Authorization', auth());
    const res = await (accept === undefined ? req.unset('Accept') : req.set('Accept', accept));
    if (expected === 406) {
      expect([res.status, res.body]).toEqual([406, { message: messages.notAcceptableRestcomm }]);
      return;
    }
    expect([res.status, res.headers['content-type']]).toEqual([200, `application/${expected}`]);
  });

  test('the service as specified keeps its 406: it has no XML', async () => {
    const spec = makeEmulator();
    const a = byCalls(spec.world, 448);
    const res = await request(spec.app)
      .get(`/call/2012-04-24/Accounts/${a.sid}/Calls`)
      .auth(a.token, '')
      .unset('Accept');
    expect([res.status, res.body]).toEqual([406, { message: messages.notAcceptable }]);
  });

  test('a response cached for one format is never served for the other', async () => {
    const url = `${RC}/${acme.sid}/Calls?PageSize=3`;
    for (let round = 0; round < 2; round++) {
      const xml = await xmlGet(url);
      const json = await request(app).get(url).set('Authorization', auth()).set('Accept', 'application/json');
      expect([xml.headers['content-type'], json.headers['content-type']]).toEqual([
        'application/xml',
        'application/json',
      ]);
    }
  });
});

describe('--dialect restcomm: the XML is the JSON as production converts it', () => {
  test('every call of the account: each member named, ordered and valued as CallDetailRecordConverter writes it', async () => {
    const json = await jsonGet(`${RC}/${acme.sid}/Calls.json?PageSize=448&SortBy=Status`);
    const xml = parse((await xmlGet(`${RC}/${acme.sid}/Calls?PageSize=448&SortBy=Status`)).text);
    expect(xml.name).toBe('Calls');
    expect(xml.children).toHaveLength(448);
    const statuses = new Set<string>();
    xml.children.forEach(([name, fields], k) => {
      const call = json['calls'][k] as Item;
      statuses.add(call['status']);
      expect(name).toBe('Call');
      expect(fields).toEqual(expectedCall(call));
    });
    // The account's calls cover the lives production writes differently: both cases of status.
    expect([...statuses].some((s) => s === s.toUpperCase())).toBe(true);
    expect([...statuses].some((s) => s === s.toLowerCase())).toBe(true);
  });

  test.each([
    ['first', '?PageSize=50'],
    ['middle', '?PageSize=50&Page=3'],
    ['last', '?PageSize=50&Page=8'],
  ])('the %s page: the paging attributes are the JSON envelope, with the page count as total', async (_n, query) => {
    const json = await jsonGet(`${RC}/${acme.sid}/Calls.json${query}`);
    const xml = parse((await xmlGet(`${RC}/${acme.sid}/Calls${query}`)).text);
    expect(xml.attrs).toEqual({
      page: String(json['page']),
      numpages: String(json['num_pages']),
      pagesize: String(json['page_size']),
      // CallDetailRecordListConverter writes getTotalPages() for total in XML.
      total: String(json['num_pages']),
      start: json['start'],
      end: json['end'],
      uri: json['uri'],
      firstpageuri: json['first_page_uri'],
      previouspageuri: json['previous_page_uri'],
      nextpageuri: json['next_page_uri'],
      lastpageuri: json['last_page_uri'],
    });
    expect(xml.children.map(([, f]) => (f as Children)[0]?.[1])).toEqual(json['calls'].map((c: Item) => c['sid']));
  });

  test('recordings and notifications: no paging attributes, members as their converters write them', async () => {
    const recs = await jsonGet(`${RC}/${acme.sid}/Recordings.json?PageSize=20&Page=2`);
    const recXml = parse((await xmlGet(`${RC}/${acme.sid}/Recordings?PageSize=20&Page=2`)).text);
    expect([recXml.name, recXml.attrs]).toEqual(['Recordings', {}]);
    expect(recXml.children).toEqual(
      recs['recordings'].map((r: Item) => [
        'Recording',
        [
          ['Sid', r['sid']],
          ['DateCreated', r['date_created']],
          ['DateUpdated', r['date_updated']],
          ['AccountSid', r['account_sid']],
          ['CallSid', r['call_sid']],
          ['Duration', r['duration']],
          ['ApiVersion', r['api_version']],
          ['Uri', r['uri'].replace(/\.json$/, '')],
          ['FileUri', r['file_uri']],
        ],
      ]),
    );
    const nots = await jsonGet(`${RC}/${acme.sid}/Notifications.json?PageSize=5`);
    const notXml = parse((await xmlGet(`${RC}/${acme.sid}/Notifications?PageSize=5`)).text);
    expect([notXml.name, notXml.attrs]).toEqual(['Notifications', {}]);
    const names = [
      ['Sid', 'sid'],
      ['DateCreated', 'date_created'],
      ['DateUpdated', 'date_updated'],
      ['AccountSid', 'account_sid'],
      ['CallSid', 'call_sid'],
      ['ApiVersion', 'api_version'],
      ['Log', 'log'],
      ['ErrorCode', 'error_code'],
      ['MoreInfo', 'more_info'],
      ['MessageText', 'message_text'],
      ['MessageDate', 'message_date'],
      ['RequestUrl', 'request_url'],
      ['RequestMethod', 'request_method'],
      ['RequestVariables', 'request_variables'],
      ['ResponseHeaders', 'response_headers'],
      ['ResponseBody', 'response_body'],
      ['Uri', 'uri'],
    ];
    expect(notXml.children).toEqual(
      nots['notifications'].map((n: Item) => [
        'Notification',
        names.map(([el, key]) => [el, key === 'uri' ? n['uri'].replace(/\.json$/, '') : String(n[key as string])]),
      ]),
    );
  });

  test('single records, a call’s recordings and the account answer under RestcommResponse too', async () => {
    const calls = await jsonGet(`${RC}/${acme.sid}/Calls.json?PageSize=448`);
    const withRecs = (calls['calls'] as Item[]).find(
      (c) => c['direction'] === 'inbound' && c['status'] === 'completed',
    )!;
    const one = parse((await xmlGet(`${RC}/${acme.sid}/Calls/${withRecs['sid']}`)).text);
    expect(['Call', one.children]).toEqual(['Call', expectedCall(withRecs)]);
    expect(one.name).toBe('Call');

    const recs = await jsonGet(`${RC}/${acme.sid}/Recordings.json?PageSize=1`);
    const rec = recs['recordings'][0] as Item;
    const recXml = parse((await xmlGet(`${RC}/${acme.sid}/Recordings/${rec['sid']}`)).text);
    expect([recXml.name, recXml.children[0]]).toEqual(['Recording', ['Sid', rec['sid']]]);
    const ofCall = parse((await xmlGet(`${RC}/${acme.sid}/Calls/${rec['call_sid']}/Recordings`)).text);
    expect(ofCall.name).toBe('Recordings');
    expect(ofCall.children.map(([, f]) => (f as Children)[0]?.[1])).toContain(rec['sid']);

    const account = await jsonGet(`${RC}/${acme.sid}.json`);
    const accountXml = parse((await xmlGet(`${RC}/${acme.sid}`)).text);
    expect(accountXml.name).toBe('Account');
    // Status, Role, Type in this order (the JSON has type first); the stored Uri, no .json anywhere.
    expect(accountXml.children.map(([n]) => n)).toEqual([
      'Sid',
      'organization',
      'FriendlyName',
      'EmailAddress',
      'Status',
      'Role',
      'Type',
      'DateCreated',
      'DateUpdated',
      'AuthToken',
      'Uri',
      'SubresourceUris',
    ]);
    expect(Object.fromEntries(accountXml.children.slice(0, 11))).toMatchObject({
      Sid: account['sid'],
      organization: account['organization'],
      FriendlyName: account['friendly_name'],
      EmailAddress: account['email_address'],
      Status: account['status'],
      Role: account['role'],
      Type: account['type'],
      AuthToken: account['auth_token'],
      Uri: `/2012-04-24/Accounts/${acme.sid}`,
    });
    const subs = accountXml.children[11]![1] as Children;
    expect(subs.map(([, v]) => v)).toEqual(
      Object.values(account['subresource_uris'] as Record<string, string>).map((u) => u.replace(/\.json$/, '')),
    );
    expect(subs.map(([n]) => n)).toContain('SMSMessages');
  });

  test('an empty list closes itself, as XStream writes an element with nothing in it', async () => {
    const empty = byCalls(world, 0);
    const res = await xmlGet(`${RC}/${empty.sid}/Calls`, empty);
    expect(res.text).toMatch(/^<RestcommResponse>\n {2}<Calls page="0" [^>]*\/>\n<\/RestcommResponse>$/);
  });

  test("text is escaped as XStream escapes it, and reads back as the JSON's", async () => {
    const { app: a, world: w } = makeEmulator({ dialect: 'restcomm' });
    const acc = byCalls(w, 448);
    const name = `O'Brien & <Sons> "Ltd"\r`;
    const inserted = await request(a)
      .post(`/__admin/accounts/${acc.sid}/calls`)
      .type('json')
      .send({ caller_name: name, status: 'completed', duration: 5, date_created: 'Sat, 17 May 2025 10:00:00 +0000' });
    expect(inserted.status).toBe(201);
    const res = await request(a)
      .get(`${RC}/${acc.sid}/Calls/${inserted.body.sid}`)
      .set('Authorization', basic(acc.sid, acc.token))
      .unset('Accept');
    expect(res.text).toContain('<CallerName>O&apos;Brien &amp; &lt;Sons&gt; &quot;Ltd&quot;&#xd;</CallerName>');
    expect(Object.fromEntries(parse(res.text).children)['CallerName']).toBe(name);
  });

  test('a page past the streaming threshold is streamed in XML, items one after another', async () => {
    const big = byCalls(world, STREAM_THRESHOLD + 200);
    const size = STREAM_THRESHOLD + 200;
    const res = await xmlGet(`${RC}/${big.sid}/Calls?PageSize=${size}`, big);
    expect([res.status, res.headers['content-type'], res.headers['content-length']]).toEqual([
      200,
      'application/xml',
      undefined,
    ]);
    const xml = parse(res.text);
    expect(xml.children).toHaveLength(size);
    const json = await jsonGet(`${RC}/${big.sid}/Calls.json?PageSize=${size}`, big);
    expect(xml.children.map(([, f]) => (f as Children)[0]?.[1])).toEqual(json['calls'].map((c: Item) => c['sid']));
  });
});
