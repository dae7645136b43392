// A twilio-node script as written for production: no baseUrl, credentials from the environment.
// Run with only HTTP_PROXY and NODE_EXTRA_CA_CERTS set, it reaches the emulator through the proxy.
const twilio = require('twilio');

async function main() {
  const client = twilio(process.env.TWILIO_ACCOUNT_SID, process.env.TWILIO_AUTH_TOKEN);
  const sids = [];
  let pages = 0;
  let page = await client.calls.page({ pageSize: 50 });
  while (page !== undefined) {
    pages += 1;
    sids.push(...page.instances.map((call) => call.sid));
    page = await page.nextPage();
  }
  const [first] = await client.recordings.list({ limit: 1 });
  const recording = await client.recordings(first.sid).fetch();
  process.stdout.write(`${JSON.stringify({ pages, sids, recording: recording.sid })}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
