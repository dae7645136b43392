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
 * What the account resource prints besides the profile. A generated account is a full, active
 * account, with the Developer role unless the fixtures give it Administrator, and `date_updated`
 * is `date_created`, as nothing updates it; production's own account shows its row's.
 */
export interface AccountFacts {
  organization: string;
  type: string;
  status: string;
  role: string;
  created: string;
  updated: string;
  /** The `uri` as stored, which the XML prints as it stands. */
  storedUri: string;
}

/** The facts of a generated account, created at `createdSec`. @example generatedFacts('AC1', 1370000000, 'Developer').status // 'active' */
export function generatedFacts(sid: string, createdSec: number, role: AccountRole = 'Developer'): AccountFacts {
  const date = rfc2822Date(createdSec);
  const storedUri = accountStoredUri(sid);
  return {
    organization: DEFAULT_ORGANIZATION,
    type: 'Full',
    status: 'active',
    role,
    created: date,
    updated: date,
    storedUri,
  };
}

/**
 * An account as Restcomm's `AccountConverter` writes it (`--dialect restcomm`), keys in its order.
 * Production's JSON has no parent: a sub-account looks like any other.
 * @example accountJson(profile, generatedFacts('AC1', 1370000000)) // '{"sid":"AC…","friendly_name":"Main","email_address":"main.3f9a1c@example.com","type":"Full","status":"active","role":"Developer",…}'
 */
export function accountJson(profile: AccountProfile, facts: AccountFacts): string {
  const subresources = Object.fromEntries(
    SUBRESOURCES.map(([key, name]) => [key, accountSubresourceUri(profile.sid, name)]),
  );
  return JSON.stringify({
    sid: profile.sid,
    organization: facts.organization,
    friendly_name: profile.friendlyName,
    email_address: profile.email,
    type: facts.type,
    status: facts.status,
    role: facts.role,
    date_created: facts.created,
    date_updated: facts.updated,
    auth_token: profile.token,
    uri: accountResourceUri(profile.sid),
    subresource_uris: subresources,
  });
}

/**
 * An account as production's XML writes it (`AccountConverter.marshal`): status, role and type in
 * that order (the JSON has type first), `Uri` as stored, without `.json` anywhere.
 * @example accountXml(profile, generatedFacts('AC1', 1370000000)) // ['Account', [['Sid', 'AC…'], ['organization', 'OR…'], …]]
 */
export function accountXml(profile: AccountProfile, facts: AccountFacts): XmlField {
  return [
    'Account',
    [
      ['Sid', profile.sid],
      ['organization', facts.organization],
      ['FriendlyName', profile.friendlyName],
      ['EmailAddress', profile.email],
      ['Status', facts.status],
      ['Role', facts.role],
      ['Type', facts.type],
      ['DateCreated', facts.created],
      ['DateUpdated', facts.updated],
      ['AuthToken', profile.token],
      ['Uri', facts.storedUri],
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
  /** Full or Trial (Trial only on production's own accounts). */
  type: string;
  /** active on generated accounts; production's own may be closed, suspended, inactive or uninitialized. */
  status: string;
  /** Developer or Administrator on generated accounts; production's own, any role its row holds. */
  role: string;
  date_created: string;
  date_updated: string;
  auth_token: string;
  uri: string;
  subresource_uris: Record<(typeof SUBRESOURCES)[number][0], string>;
}
