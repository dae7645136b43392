import { apiKeyOf } from '../generators/account';
import type { Account } from '../store/world';

/**
 * The accounts as the admin API shows them: with tokens, so tests can authenticate.
 * @example accountView(a) // { sid: 'AC…', token: '…', api_key: { sid: 'SK…', secret: '…' }, friendly_name: 'Main', calls: 448, recordings: 160 }
 */
export function accountView(a: Account) {
  return {
    sid: a.profile.sid,
    token: a.profile.token,
    api_key: apiKeyOf(a.context.seed, a.profile.sid),
    friendly_name: a.profile.friendlyName,
    calls: a.calls.count,
    recordings: a.recordings.count,
  };
}
