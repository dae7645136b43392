// node's own test runner: one emulator for this file (or the one CALLREC_URL names), a sandbox per test.
// Run: node --test examples/node-test/
const assert = require('node:assert/strict');
const { test, after } = require('node:test');
const { emulator, useEmulator, useSandbox } = require('callrec-emulator/node-test');

useEmulator({ seed: 'node-test-example' });
const sandbox = useSandbox('Acme Support Line');
const seen = [];

for (const n of [1, 2, 3]) {
  test(`test ${n}: its inserts and its clock, nobody else's`, async () => {
    const sb = sandbox();
    seen.push(sb.sid);
    const marker = `+15558880${n}`;
    await sb.addCalls(Array.from({ length: n }, () => ({ from: marker })));
    await sb.clock.advance(`PT${n}H`);
    const res = await fetch(`${sb.callsUrl}?From=${encodeURIComponent(marker)}`, {
      headers: { Authorization: sb.authorization },
    });
    assert.equal((await res.json()).total, n);
    assert.equal(Date.parse(await sb.clock.now()) - Date.parse(await emulator().clock.now()), n * 3_600_000);
    assert.deepEqual(
      (await emulator().sandboxes()).map((s) => s.friendly_name),
      [`test ${n}: its inserts and its clock, nobody else's`],
    );
  });
}

after(async () => {
  // Every test had a sandbox of its own, and none is left.
  assert.equal(new Set(seen).size, 3);
});
