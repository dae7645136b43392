import type { Config } from './config';
import { adminRoutes, CONSOLE_MOUNT, callsListPath, callsListUri, RESTCOMM_MOUNT } from './format/uris';
import type { RunningEmulator } from './server';

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
  const tokenHead = config.dialect === 'restcomm' ? 'auth token' : 'token (Basic user name)';
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
    line(head),
    ...rows.map(line),
  ];
  if (first !== undefined && config.dialect === 'restcomm') {
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
  } else if (first !== undefined) {
    lines.push(`Try: curl -u ${first.profile.token}: ${em.url}${callsListPath(first.profile.sid)}`);
  }
  lines.push(
    `Inspector: ${em.url}${adminRoutes.ui}${config.adminToken === null ? '' : ' (password: the admin token)'}`,
  );
  return `${lines.join('\n')}\n`;
}
