import { shownStatus, stateOfText } from '../../generators/call-life';
import type { CallFacts } from '../../generators/call-record';
import { rfc2822Date } from '../dates';

/**
 * A date as Twilio writes it: RFC 2822 in UTC, the day of the month zero-padded (where
 * Restcomm's `SimpleDateFormat` pads nothing).
 * @example twilioDate(1373062553) // 'Fri, 05 Jul 2013 22:15:53 +0000'
 */
export function twilioDate(epochSec: number): string {
  const text = rfc2822Date(epochSec);
  return text.charAt(6) === ' ' ? `${text.slice(0, 5)}0${text.slice(5)}` : text;
}

/**
 * A sid in Twilio's form: a call's without the `ID…-` InstanceId Restcomm puts before it; every
 * other sid is Twilio's form already.
 * @example twilioSid('ID728f33cb898ce713cd0fc5dd6b911989-CAaa597006409a09d6f0106fa494f05ed6') // 'CAaa597006409a09d6f0106fa494f05ed6'
 */
export function twilioSid(sid: string): string {
  const dash = sid.indexOf('-');
  return dash < 0 ? sid : sid.slice(dash + 1);
}

/** Twilio's call statuses. */
export const TWILIO_CALL_STATUSES = [
  'queued',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
] as const;
export type TwilioCallStatus = (typeof TWILIO_CALL_STATUSES)[number];

/**
 * A call's status in Twilio's words, from the same life: Restcomm's `not-found` (no such
 * destination) is Twilio's `failed`; a row whose status names no state reads `completed`.
 * @example twilioCallStatus(busyOutbound) // 'busy'
 */
export function twilioCallStatus(call: CallFacts): TwilioCallStatus {
  const state = stateOfText(shownStatus(call)) ?? 'completed';
  return state === 'not-found' ? 'failed' : state;
}

/**
 * A North American number as Twilio's `*_formatted` prints it; anything else as it stands.
 * @example formattedNumber('+15017122661') // '(501) 712-2661'
 * @example formattedNumber('alice') // 'alice'
 */
export function formattedNumber(address: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(address);
  return m === null ? address : `(${m[1]}) ${m[2]}-${m[3]}`;
}

/**
 * A price as Twilio prints it: a charge is negative, five decimals, in units of 0.00001 USD.
 * @example twilioPrice(1400) // '-0.01400'
 */
export function twilioPrice(units: number): string {
  return `-${Math.floor(units / 100_000)}.${String(units % 100_000).padStart(5, '0')}`;
}

/** Per started minute, in 0.00001 USD: Twilio's US list prices for receiving and making a call. */
const MINUTE_UNITS = { inbound: 850, outbound: 1400 } as const;
/** Per started minute of a recording, in 0.00001 USD. */
export const RECORDING_MINUTE_UNITS = 250;

/**
 * What a call cost, by its direction and started minutes: only a completed call is charged.
 * @example callPriceUnits('outbound-api', 61) // 2800
 */
export function callPriceUnits(direction: string, durationSec: number): number {
  const rate = direction === 'inbound' ? MINUTE_UNITS.inbound : MINUTE_UNITS.outbound;
  return Math.max(1, Math.ceil(durationSec / 60)) * rate;
}
