import { twilioAccountUri, twilioListUri } from '../uris';
import { twilioDate } from './fields';

/** What an account resource says besides its profile: when it was made, its owner, its status. */
export interface TwilioAccountFacts {
  sid: string;
  token: string;
  friendlyName: string;
  createdSec: number;
  /** Its parent's sid for a subaccount; its own for a main account, as Twilio prints it. */
  ownerSid: string;
  /** Restcomm's status: Twilio has no `inactive` or `uninitialized`, which read `suspended`. */
  status: string;
}

/**
 * Restcomm's account status in Twilio's words: Twilio has no `inactive` or `uninitialized`,
 * which read `suspended`.
 * @example twilioAccountStatus('uninitialized') // 'suspended'
 */
export function twilioAccountStatus(status: string): 'active' | 'suspended' | 'closed' {
  return status === 'active' || status === 'closed' ? status : 'suspended';
}

/** The lists under an account this dialect serves, as its `subresource_uris` names them. */
const ACCOUNT_LISTS: readonly [string, string][] = [
  ['calls', 'Calls'],
  ['notifications', 'Notifications'],
  ['recordings', 'Recordings'],
];

/**
 * An account as Twilio's `api.v2010.account` schema has it, in the schema's order: `type`
 * `Full`, the auth token shown, as Twilio shows it to the account's own credentials.
 * @example twilioAccountJson(facts) // '{"auth_token":"…","date_created":"…","date_updated":"…","friendly_name":"Acme Support Line",…}'
 */
export function twilioAccountJson(a: TwilioAccountFacts): string {
  return JSON.stringify(twilioAccount(a));
}

/** The account's members (see `twilioAccountJson`). */
export function twilioAccount(a: TwilioAccountFacts): Record<string, unknown> {
  const created = twilioDate(a.createdSec);
  const status = twilioAccountStatus(a.status);
  return {
    auth_token: a.token,
    date_created: created,
    date_updated: created,
    friendly_name: a.friendlyName,
    owner_account_sid: a.ownerSid,
    sid: a.sid,
    status,
    subresource_uris: Object.fromEntries(ACCOUNT_LISTS.map(([k, seg]) => [k, twilioListUri(a.sid, seg)])),
    type: 'Full',
    uri: twilioAccountUri(a.sid),
  };
}
