const { makeWorldContext, makeAccountProfile } = require('./dist/generators/account');
const { generateCall, generateCallCore } = require('./dist/generators/call');
const { personName, sipUser } = require('./dist/random/faker');
const w = makeWorldContext('callrec', Date.parse('2025-06-01T12:00:00Z'));
const a = makeAccountProfile('callrec', { friendlyName: 'X', calls: 1e6, recordings: 0 }, 0);
function t(name, n, f) { for (let i = 0; i < n/10; i++) f(i); const s = process.hrtime.bigint(); for (let i = 0; i < n; i++) f(i); const ns = Number(process.hrtime.bigint() - s) / n; console.log(name.padEnd(20), ns.toFixed(0), 'ns/op'); }
t('core', 100000, (i) => generateCallCore(w, a, i));
t('personName', 100000, (i) => personName(a.streams.call.at(i)));
t('sipUser', 100000, (i) => sipUser(a.streams.call.at(i)));
t('hex32', 100000, (i) => a.streams.call.at(i).hex(32));
t('full', 100000, (i) => generateCall(w, a, i));
