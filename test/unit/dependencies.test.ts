import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** Every source text the package ships or runs: src/ and scripts/. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js)$/.test(name) ? [readFileSync(path, 'utf8')] : [];
  });
}

describe('dependencies', () => {
  const texts = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'scripts'))];

  // A dependency installs for every user of the package: one the code no longer names is weight.
  test.each(Object.keys(pkg.dependencies))('%s is named by the code it ships', (name) => {
    const named = texts.some((t) => t.includes(`'${name}'`) || t.includes(`'${name}/`));
    expect(named).toBe(true);
  });
});
