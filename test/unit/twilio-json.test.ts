import { readFileSync } from 'node:fs';
import { twilioCallJson } from '../../src/format/twilio/call';
import { formattedNumber, twilioDate, twilioPrice, twilioSid } from '../../src/format/twilio/fields';
import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import { generateCall } from '../../src/generators/call';
import { TWILIO_OAS_FILE } from '../support/twilio-openapi';

const oas = JSON.parse(readFileSync(TWILIO_OAS_FILE, 'utf8'));
const CALL_ORDER = Object.keys(oas.components.schemas['api.v2010.account.call'].properties);
const world = makeWorldContext('callrec', Date.parse('2025-06-01T00:00:00Z'));
const account = makeAccountProfile('callrec', { friendlyName: 'A', calls: 2000, recordings: 0 }, 0);

describe("a call in Twilio's JSON", () => {
  test("is what JSON.stringify writes of its members, in the schema's order, for 2,000 calls and odd texts", () => {
    for (let k = 0; k < 2000; k++) {
      const call = generateCall(world, account, k);
      const odd = k % 10 === 0 ? { ...call, callerName: 'O"Brien \\ \u2028 ü', to: 'sip:a"b@x' } : call;
      const text = twilioCallJson(odd, account.sid);
      const shown = JSON.parse(text) as Record<string, unknown>;
      expect(JSON.stringify(shown)).toBe(text);
      expect(Object.keys(shown)).toEqual(CALL_ORDER);
      expect(shown['sid']).toBe(twilioSid(call.sid));
    }
  });
});

describe("Twilio's field forms", () => {
  // [epoch seconds, text]: the day zero-padded, UTC.
  const dates: [number, string][] = [
    [1373062553, 'Fri, 05 Jul 2013 22:15:53 +0000'],
    [1748744228, 'Sun, 01 Jun 2025 02:17:08 +0000'],
    [1750000000, 'Sun, 15 Jun 2025 15:06:40 +0000'],
    [0, 'Thu, 01 Jan 1970 00:00:00 +0000'],
  ];
  test.each(dates)('twilioDate(%i) is %s', (sec, text) => {
    expect(twilioDate(sec)).toBe(text);
    expect(Date.parse(text)).toBe(sec * 1000);
  });
  // [address, formatted]
  const numbers: [string, string][] = [
    ['+15017122661', '(501) 712-2661'],
    ['+441632960961', '+441632960961'],
    ['15017122661', '15017122661'],
    ['alice', 'alice'],
    ['client:bob', 'client:bob'],
  ];
  test.each(numbers)('formattedNumber(%s) is %s', (address, formatted) =>
    expect(formattedNumber(address)).toBe(formatted),
  );
  // [units of 0.00001 USD, text]
  const prices: [number, string][] = [
    [1400, '-0.01400'],
    [850, '-0.00850'],
    [100000, '-1.00000'],
    [123456, '-1.23456'],
  ];
  test.each(prices)('twilioPrice(%i) is %s', (units, text) => expect(twilioPrice(units)).toBe(text));
});
