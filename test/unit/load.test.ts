import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromOptions, DEFAULT_STATES } from '../../src/config';
import { problems, ValidationError } from '../../src/errors';
import { loadInputs, readStates } from '../../src/load';

const dir = mkdtempSync(join(tmpdir(), 'callrec-load-'));
const file = (name: string, data: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
};

describe('loadInputs: the files a config names', () => {
  test('the embedded defaults: accounts from fixtures/default.json, three provider states', () => {
    const inputs = loadInputs(configFromOptions({}));
    expect(inputs.accounts.length).toBeGreaterThanOrEqual(4);
    expect(inputs.states.size).toBe(3);
    expect(Object.isFrozen(inputs.accounts)).toBe(true);
  });

  test('a fixtures file, and fixtures given as data (labelled options.fixtures)', () => {
    const path = file('f.json', { accounts: [{ friendly_name: 'Only', calls: 2 }] });
    expect(loadInputs(configFromOptions({ fixtures: path }))).toMatchObject({
      fixturesLabel: path,
      accounts: [{ friendlyName: 'Only', calls: 2, recordings: 0 }],
    });
    expect(() => loadInputs(configFromOptions({ fixtures: { accounts: [{ friendly_name: '' }] } }))).toThrow(
      'options.fixtures: accounts[0].friendly_name: must be a non-empty string',
    );
  });

  test("--restcomm-console: Restcomm's dialect, and a folder with the console's index.html", () => {
    const consoleDir = mkdtempSync(join(tmpdir(), 'callrec-console-'));
    const withIndex = mkdtempSync(join(tmpdir(), 'callrec-console-'));
    writeFileSync(join(withIndex, 'index.html'), '<html></html>');
    expect(() => loadInputs(configFromOptions({ restcommConsole: withIndex }))).toThrow(
      new ValidationError('restcomm-console', problems.consoleNeedsRestcomm),
    );
    expect(() => loadInputs(configFromOptions({ restcommConsole: consoleDir, dialect: 'restcomm' }))).toThrow(
      new ValidationError('restcomm-console', problems.consoleNoIndex(consoleDir)),
    );
    expect(loadInputs(configFromOptions({ restcommConsole: withIndex, dialect: 'restcomm' })).accounts.length).toBe(4);
  });

  test('a missing file names the file and the reason', () => {
    expect(() => loadInputs(configFromOptions({ fixtures: '/nonexistent/x.json' }))).toThrow(
      new ValidationError('/nonexistent/x.json', 'cannot read the fixtures file (ENOENT)'),
    );
  });

  test('a states file that is not one names the file and the field', () => {
    const path = file('s.json', { states: { x: { account: 5 } } });
    expect(() => readStates(path)).toThrow(`${path}: states["x"].account: must be a JSON object`);
    expect(() => readStates(file('t.json', '{"states": ['))).toThrow(`${join(dir, 't.json')}: not valid JSON`);
    expect(readStates(DEFAULT_STATES).size).toBe(3);
  });
});
