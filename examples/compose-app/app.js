// An app under test, in the compose file: it walks every page of an account's calls through
// next_page_uri, as a production client must (adding the /call prefix and .json), and checks the
// count against total. Run it against any emulator: CALLREC_URL=http://127.0.0.1:8080 node app.js

const base = process.env.CALLREC_URL || 'http://127.0.0.1:8080';

async function main() {
  const { accounts } = await (await fetch(`${base}/__admin/accounts`)).json();
  const account = accounts.find((a) => a.calls > 0);
  const auth = { Authorization: `Basic ${Buffer.from(`${account.token}:`).toString('base64')}` };
  let path = `/call/2012-04-24/Accounts/${account.sid}/Calls.json?PageSize=100`;
  let seen = 0;
  let total = 0;
  for (;;) {
    const page = await (await fetch(base + path, { headers: auth })).json();
    seen += page.calls.length;
    total = page.total;
    if (page.next_page_uri === 'null') break;
    // The printed link lacks the /call prefix and the .json suffix.
    const [p, q] = page.next_page_uri.split('?');
    path = `/call${p}.json?${q}`;
  }
  process.stdout.write(`walked ${seen} of ${total} calls of ${account.sid}\n`);
  if (seen !== total) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
});
