import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OPTIONS } from '../../src/config';
import { adminRoutes, routes } from '../../src/format/uris';
import { asDocPath } from '../support/app';

const readme = readFileSync(resolve(__dirname, '..', '..', 'README.md'), 'utf8');

describe('README stays true', () => {
  test('the two set-up commands and the test command', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });

  test.each(OPTIONS.map((o) => [o.name, o.env]))('documents --%s and %s', (flag, env) => {
    expect(readme).toMatch(new RegExp(`\`--${flag}[ \`]`));
    expect(readme).toContain(`\`${env}\``);
  });

  test('the sample response is the golden body it claims to be', () => {
    const golden = readFileSync(resolve(__dirname, '..', '..', 'fixtures', 'golden', 'calls-1.json'), 'utf8').trim();
    expect(readme).toContain(`\`\`\`json\n${golden}\n\`\`\``);
  });

  test.each(Object.entries({ ...routes, ...adminRoutes }))('documents the %s route', (_name, pattern) => {
    const shown = asDocPath(pattern).replace('{.json}', '.json');
    expect(readme).toContain(shown);
  });
});
