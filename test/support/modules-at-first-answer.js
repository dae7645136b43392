// Preloaded (node --require) into the built server by test/process/start-up.test.ts: says on
// stderr which packages were loaded when the first response was written, and when asked.
const http = require('node:http');

function packages() {
  const names = new Set();
  for (const file of Object.keys(require.cache)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    if (m !== null) names.add(m[1]);
  }
  return [...names].sort().join(' ');
}

const end = http.ServerResponse.prototype.end;
let noted = false;
http.ServerResponse.prototype.end = function (...args) {
  if (!noted) {
    noted = true;
    process.stderr.write(`packages at the first answer: ${packages()}\n`);
  }
  return end.apply(this, args);
};
// Asked with SIGUSR2: which packages are loaded now.
process.on('SIGUSR2', () => process.stderr.write(`packages now: ${packages()}\n`));
