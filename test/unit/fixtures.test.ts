import { readFileSync } from 'node:fs';
import { DEFAULT_FIXTURES } from '../../src/config';
import { ValidationError } from '../../src/errors';
import { parseFixtures, validateFixtures } from '../../src/store/fixtures';
import { World } from '../../src/store/world';

const v = (data: unknown) => validateFixtures(data, 'f.json');
const fails = (data: unknown, text: string) => {
  expect(() => v(data)).toThrow(ValidationError);
  expect(() => v(data)).toThrow(text);
};

describe('fixtures', () => {
  test('the embedded default holds the accounts the tests rely on', () => {
    const accounts = parseFixtures(readFileSync(DEFAULT_FIXTURES, 'utf8'), DEFAULT_FIXTURES);
    expect(accounts.some((a) => a.calls === 448 && a.recordings > 100)).toBe(true);
    expect(accounts.some((a) => a.calls === 50)).toBe(true);
    expect(accounts.some((a) => a.calls === 1 && a.recordings === 1)).toBe(true);
    expect(accounts.some((a) => a.calls === 0 && a.recordings === 0)).toBe(true);
  });

  test('a valid file, with defaults for missing counts', () => {
    expect(
      v({ accounts: [{ friendly_name: 'A', calls: 3, recordings: 2, token: 'abc' }, { friendly_name: 'B' }] }),
    ).toEqual([
      { friendlyName: 'A', calls: 3, recordings: 2, token: 'abc' },
      { friendlyName: 'B', calls: 0, recordings: 0 },
    ]);
  });

  test.each([
    [[], 'f.json: (top level): must be an object'],
    [{ accounts: {} }, 'f.json: accounts: must be an array'],
    [{ accounts: [], extra: 1 }, 'f.json: extra: unknown field'],
    [{ accounts: [7] }, 'f.json: accounts[0]: must be a JSON object'],
    [{ accounts: [{ friendly_name: '' }] }, 'f.json: accounts[0].friendly_name: must be a non-empty string'],
    [
      { accounts: [{ friendly_name: 'A', calls: -1 }] },
      'f.json: accounts[0].calls: must be an integer from 0 to 50000000',
    ],
    [{ accounts: [{ friendly_name: 'A', calls: 1.5 }] }, 'accounts[0].calls'],
    [{ accounts: [{ friendly_name: 'A', calls: '5' }] }, 'accounts[0].calls'],
    [
      { accounts: [{ friendly_name: 'A', calls: 1, recordings: 2 }] },
      'f.json: accounts[0].recordings: must be an integer from 0 to 1 (1 calls hold at most 1 recordings',
    ],
    [{ accounts: [{ friendly_name: 'A', call: 5 }] }, 'f.json: accounts[0].call: unknown field'],
    [
      { accounts: [{ friendly_name: 'A', token: 'a:b' }] },
      'f.json: accounts[0].token: must be 1 to 128 visible ASCII characters',
    ],
    [
      {
        accounts: [
          { friendly_name: 'A', token: 't' },
          { friendly_name: 'B', token: 't' },
        ],
      },
      'f.json: accounts[1].token: the same token as accounts[0]',
    ],
    [
      { accounts: [{ friendly_name: 'A', sid: 'AC1' }] },
      'f.json: accounts[0].sid: must be "AC" and 32 lower-case hex digits',
    ],
  ])('%j → %s', (data, text) => fails(data, text));

  test('malformed JSON names the file', () => {
    expect(() => parseFixtures('{"accounts": [', 'x/y.json')).toThrow(/^x\/y\.json: not valid JSON/);
  });

  test('a sid given to one account that another derives is refused when the world is built', () => {
    const probe = new World({ seed: 's', clockMs: 0, accounts: [{ friendlyName: 'A', calls: 0, recordings: 0 }] });
    const sid = probe.accounts()[0]!.profile.sid;
    expect(
      () =>
        new World({
          seed: 's',
          clockMs: 0,
          accounts: [
            { friendlyName: 'A', calls: 0, recordings: 0 },
            { friendlyName: 'B', calls: 0, recordings: 0, sid },
          ],
        }),
    ).toThrow('accounts[1].sid: the same sid as accounts[0]');
  });
});
