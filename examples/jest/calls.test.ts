/** What an application's test looks like against the emulator: plain HTTP, Basic auth with the token. */
const url = process.env['CALLREC_URL'] as string;
const account = process.env['CALLREC_ACCOUNT'] as string;
const token = process.env['CALLREC_TOKEN'] as string;
const auth = { Authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` };

async function admin(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}/__admin${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  return res.json();
}

afterEach(async () => {
  // Each test leaves the account as it found it, without touching other accounts.
  await admin('POST', `/accounts/${account}/reset`);
});

test('the first page of calls', async () => {
  const res = await fetch(`${url}/call/2012-04-24/Accounts/${account}/Calls.json?PageSize=10`, { headers: auth });
  const page = await res.json();
  expect(res.status).toBe(200);
  expect(page.calls).toHaveLength(10);
  expect(page.previous_page_uri).toBe('null');
});

test('a call the test adds shows first', async () => {
  const [added] = await admin('POST', `/accounts/${account}/calls`, [
    { from: '+15550001111', status: 'completed', duration: 42 },
  ]);
  const page = await (
    await fetch(`${url}/call/2012-04-24/Accounts/${account}/Calls.json?PageSize=1`, { headers: auth })
  ).json();
  expect(page.calls[0].sid).toBe(added.sid);
});
