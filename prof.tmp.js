const { spawn } = require('child_process');
const autocannon = require('autocannon');
const seedrandom = require('seedrandom');
(async () => {
  const p = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', 'dist/cli.js', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = ''; const url = await new Promise(r => p.stdout.on('data', d => { out += d; const m = /listening on (\S+)/.exec(out); if (m && out.includes('Try:')) r(m[1]); }));
  const accounts = (await (await fetch(url + '/__admin/accounts')).json()).accounts;
  const rng = seedrandom.alea('x');
  const sorts = ['', ...['DateCreated', 'From', 'To', 'Direction', 'Status', 'Duration', 'Price'].flatMap((a) => [`&SortBy=${a}:asc`, `&SortBy=${a}:desc`])];
  const r = await autocannon({ url, connections: 32, duration: 5, requests: [{ setupRequest: (req) => {
    const a = accounts[Math.floor(rng() * accounts.length)]; const size = 10 + Math.floor(rng() * 91); const page = Math.floor(rng() * (Math.floor(a.calls / size) + 1));
    req.path = `/call/2012-04-24/Accounts/${a.sid}/Calls.json?Page=${page}&PageSize=${size}${sorts[Math.floor(rng() * sorts.length)]}`;
    req.headers = { ...req.headers, authorization: 'Basic ' + Buffer.from(a.token + ':').toString('base64') }; return req; } }] });
  console.log('rps', r.requests.average, 'non2xx', r.non2xx);
  p.kill('SIGINT'); await new Promise(r => p.on('exit', r));
  const fs=require('fs');const f=fs.readdirSync('/tmp/prof')[0];const pr=JSON.parse(fs.readFileSync('/tmp/prof/'+f));
  const self=new Map();const byId=new Map(pr.nodes.map(n=>[n.id,n]));
  const dt=pr.timeDeltas;let i=0;let tot=0;for(const s of pr.samples){const n=byId.get(s);const k=n.callFrame.functionName+' '+n.callFrame.url.split('/').slice(-2).join('/')+':'+n.callFrame.lineNumber;self.set(k,(self.get(k)||0)+(dt[i]||0));tot+=dt[i++]||0;}
  console.log([...self.entries()].sort((a,b)=>b[1]-a[1]).slice(0,25).map(([k,v])=>(100*v/tot).toFixed(1)+'% '+k).join('\n'));
  fs.rmSync('/tmp/prof',{recursive:true});
})();
