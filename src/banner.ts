import type { Config } from './config';
import { adminRoutes, CONSOLE_MOUNT, callsListPath, callsListUri, RESTCOMM_MOUNT, twilioListUri } from './format/uris';
import { apiKeyOf } from './generators/account';
import type { DumpReport } from './input/restcomm-dump';
import { clientLines } from './intercept/client-env';
import type { RunningEmulator } from './server';

/** What a `--data` dump held, in a line or three: what was read, and what was passed over. */
function dataLines(report: DumpReport | undefined): string[] {
  if (report === undefined) return [];
  const counts = (o: Partial<Record<string, number>>) =>
    Object.entries(o)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
  const lines = [`Loaded ${report.file} (${report.dialect}): ${counts(report.rows)}`];
  if (Object.keys(report.skipped_tables).length > 0)
    lines.push(`  passed over, tables the emulator does not serve: ${counts(report.skipped_tables)}`);
  if (Object.keys(report.rows_without_account).length > 0)
    lines.push(`  not served, rows of accounts the dump has no row of: ${counts(report.rows_without_account)}`);
  for (const [what, columns] of [
    ['passed over, columns production does not have', report.skipped_columns],
    ['read as NULL, columns the dump lacks', report.missing_columns],
  ] as const) {
    const listed = Object.entries(columns).map(([t, c]) => `${t}.{${(c ?? []).join(',')}}`);
    if (listed.length > 0) lines.push(`  ${what}: ${listed.join(' ')}`);
  }
  return lines;
}

/** The start-up text: where it listens, the accounts and their tokens, one curl to paste. */
export function banner(em: RunningEmulator, config: Readonly<Config>): string {
  const accounts = em.world.accounts();
  const rows = accounts.map((a) => [
    a.profile.sid,
    a.profile.token,
    String(a.calls.count),
    String(a.recordings.count),
    a.profile.friendlyName,
  ]);
  const tokenHead = config.dialect === 'spec' ? 'token (Basic user name)' : 'auth token';
  const head = ['account sid', tokenHead, 'calls', 'recordings', 'name'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd();
  const first = accounts.find((a) => a.calls.count > 0) ?? accounts[0];
  const lines = [
    `callrec-emulator listening on ${em.url} (seed ${JSON.stringify(config.seed)}, paging ${config.paging}, ${config.dialect === 'spec' ? '' : `dialect ${config.dialect}, `}fixtures ${em.fixturesLabel})`,
    ...(config.clockRate === null
      ? []
      : [
          `The clock follows wall time at ${config.clockRate}x from start-up: answers change as time passes (not deterministic)`,
        ]),
    ...dataLines(em.data),
    line(head),
    ...rows.map(line),
  ];
  if (first !== undefined && config.dialect === 'twilio') {
    const sid = first.profile.sid;
    const key = apiKeyOf(first.context.seed, sid);
    lines.push(`Try: curl -u ${sid}:${first.profile.token} ${em.url}${twilioListUri(sid, 'Calls')}`);
    lines.push(`Twilio logins: AccountSid:AuthToken, or an API key (${key.sid}:${key.secret} is ${sid}'s)`);
    lines.push(`twilio-node: client.api.baseUrl = '${em.url}'; twilio-python: client.api.base_url = '${em.url}'`);
  } else if (first !== undefined && config.dialect === 'restcomm') {
    const sid = first.profile.sid;
    lines.push(`Try: curl -u ${sid}:${first.profile.token} ${em.url}${RESTCOMM_MOUNT}${callsListUri(sid)}.json`);
    lines.push(
      `Restcomm logins: AccountSid:AuthToken, or the account's email (${first.profile.email} here) as the user`,
    );
    if (config.restcommConsole !== null) {
      lines.push(
        `Restcomm's console: ${em.url}${CONSOLE_MOUNT}/ (the email, and a password whose MD5 is the account's auth token)`,
      );
    }
  } else if (first !== undefined && em.world.accountByToken(first.profile.token) === undefined) {
    // Production's accounts share a token where they share a password: the spec's login (the
    // token as the user name) cannot tell them apart, production's (sid and token) can.
    lines.push('These accounts share their auth token: log in as AccountSid:AuthToken with --dialect restcomm');
  } else if (first !== undefined) {
    lines.push(`Try: curl -u ${first.profile.token}: ${em.url}${callsListPath(first.profile.sid)}`);
  }
  if (em.intercept !== undefined) {
    lines.push(
      `Intercepting ${em.intercept.hosts} at ${em.intercept.url} (CA ${em.intercept.certFile}; every other host refused). Set, per client:`,
      ...clientLines(em.intercept),
    );
  }
  lines.push(
    `Inspector: ${em.url}${adminRoutes.ui}${config.adminToken === null ? '' : ' (password: the admin token)'}`,
  );
  return `${lines.join('\n')}\n`;
}
