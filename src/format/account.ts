import type { AccountProfile } from '../generators/account';
import type { AccountRole } from '../generators/account-spec';
import { rfc2822Date } from './dates';
import { accountResourceUri, accountStoredUri, accountSubresourceUri } from './uris';
import type { XmlField } from './xml';

/**
 * The sub-resources Restcomm lists on an account, in its order: the JSON key, the path name, and
 * the XML element name.
 */
const SUBRESOURCES = [
  ['available_phone_numbers', 'AvailablePhoneNumbers', 'AvailablePhoneNumbers'],
  ['calls', 'Calls', 'Calls'],
  ['conferences', 'Conferences', 'Conferences'],
  ['incoming_phone_numbers', 'IncomingPhoneNumbers', 'IncomingPhoneNumbers'],
  ['notifications', 'Notifications', 'Notifications'],
  ['outgoing_caller_ids', 'OutgoingCallerIds', 'OutgoingCallerIds'],
  ['recordings', 'Recordings', 'Recordings'],
  ['sandbox', 'Sandbox', 'Sandbox'],
  ['sms_messages', 'SMS/Messages', 'SMSMessages'],
  ['transcriptions', 'Transcriptions', 'Transcriptions'],
] as const;

/** The organization every account belongs to: Restcomm's default one, as its own data ships it. */
export const DEFAULT_ORGANIZATION = 'ORafbe225ad37541eba518a74248f0ac4c';

/**
 * An account as Restcomm's `AccountConverter` writes it (`--dialect restcomm`), keys in its order.
 * Every account here is a full, active account, with the Developer role unless the fixtures give
 * it Administrator; `date_updated` is `date_created`, as nothing updates an account. Production's
 * JSON has no parent: a sub-account looks like any other.
 * @example accountJson(profile, 1370000000) // '{"sid":"AC…","friendly_name":"Main","email_address":"main.3f9a1c@example.com","type":"Full","status":"active","role":"Developer",…}'
 */
export function accountJson(profile: AccountProfile, createdSec: number, role: AccountRole = 'Developer'): string {
  const date = rfc2822Date(createdSec);
  const subresources = Object.fromEntries(
    SUBRESOURCES.map(([key, name]) => [key, accountSubresourceUri(profile.sid, name)]),
  );
  return JSON.stringify({
    sid: profile.sid,
    organization: DEFAULT_ORGANIZATION,
    friendly_name: profile.friendlyName,
    email_address: profile.email,
    type: 'Full',
    status: 'active',
    role,
    date_created: date,
    date_updated: date,
    auth_token: profile.token,
    uri: accountResourceUri(profile.sid),
    subresource_uris: subresources,
  });
}

/**
 * An account as production's XML writes it (`AccountConverter.marshal`): status, role and type in
 * that order (the JSON has type first), `Uri` as stored, without `.json` anywhere.
 * @example accountXml(profile, 1370000000) // ['Account', [['Sid', 'AC…'], ['organization', 'OR…'], …]]
 */
export function accountXml(profile: AccountProfile, createdSec: number, role: AccountRole = 'Developer'): XmlField {
  const date = rfc2822Date(createdSec);
  return [
    'Account',
    [
      ['Sid', profile.sid],
      ['organization', DEFAULT_ORGANIZATION],
      ['FriendlyName', profile.friendlyName],
      ['EmailAddress', profile.email],
      ['Status', 'active'],
      ['Role', role],
      ['Type', 'Full'],
      ['DateCreated', date],
      ['DateUpdated', date],
      ['AuthToken', profile.token],
      ['Uri', accountStoredUri(profile.sid)],
      [
        'SubresourceUris',
        SUBRESOURCES.map(([, name, element]) => [element, accountSubresourceUri(profile.sid, name, '')]),
      ],
    ],
  ];
}

/** An account as the account resource shows it: the wire shape `accountJson` writes. */
export interface RestcommAccount {
  sid: string;
  /** An `OR…` sid. */
  organization: string;
  friendly_name: string;
  email_address: string;
  type: 'Full';
  status: 'active';
  role: AccountRole;
  date_created: string;
  date_updated: string;
  auth_token: string;
  uri: string;
  subresource_uris: Record<(typeof SUBRESOURCES)[number][0], string>;
}
