// Runs Pact's verifier in plain node (one of its dependencies is ESM-only, which jest's module
// loader cannot require): node verify-pact.js BASE_URL PACT_FILE. Exit code 0 when every
// interaction passes.
// No usage tracking: this machine's only network is the loopback.
process.env.PACT_DO_NOT_TRACK = 'true';
const { Verifier } = require('@pact-foundation/pact');

const [baseUrl, pactFile] = process.argv.slice(2);
new Verifier({
  provider: 'callrec-emulator',
  providerBaseUrl: baseUrl,
  pactUrls: [pactFile],
  providerStatesSetupUrl: `${baseUrl}/__admin/provider-states`,
  logLevel: 'warn',
})
  .verifyProvider()
  .then(() => {
    process.stdout.write('pact verification passed\n');
  })
  .catch((err) => {
    process.stderr.write(`pact verification failed: ${err?.message}\n`);
    process.exitCode = 1;
  });
