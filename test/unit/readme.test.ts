import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { OPTIONS } from '../../src/config';
import { adminRoutes, routes } from '../../src/format/uris';
import { asDocPath } from '../support/app';
import { DOC_FILES, docsText, docText } from '../support/docs';
import { ROOT } from '../support/process';

const readme = docText('README.md');
/** README and docs/: the reference moved there, and README's contents table links every file. */
const docs = docsText();

describe('README stays true', () => {
  test('the two set-up commands and the test command', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });

  test('README is read in five minutes: under 300 lines, the jest example, the page walk and a fault in its first 150', () => {
    const lines = readme.split('\n');
    expect(lines.length).toBeLessThan(300);
    const first = lines.slice(0, 150).join('\n');
    expect(first).toContain('// calls.test.ts');
    expect(first).toContain('// walk.mjs');
    expect(first).toMatch(/curl -X POST \$F .*"status":503/);
  });

  test('its contents table lists every file of docs/, and every file it lists is one of them', () => {
    const listed = [...readme.matchAll(/\]\(docs\/([A-Za-z-]+\.md)\)/g)].map((m) => `docs/${m[1]}`);
    const present = readdirSync(resolve(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`);
    expect(new Set(listed)).toEqual(new Set(present));
    expect(new Set(DOC_FILES.slice(1))).toEqual(new Set(present));
  });

  test.each(DOC_FILES)('every link of %s reaches a file, and a heading where it names one', (file) => {
    const text = docText(file);
    const dir = dirname(resolve(ROOT, file));
    const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1] as string)
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => {
        const [path = '', anchor] = target.split('#');
        const at = path === '' ? resolve(ROOT, file) : resolve(dir, path);
        if (!existsSync(at)) return true;
        if (anchor === undefined || !at.endsWith('.md')) return false;
        return !headingSlugs(readFileSync(at, 'utf8')).includes(anchor);
      });
    expect(broken).toEqual([]);
  });

  test.each(OPTIONS.map((o) => [o.name, o.env]))('documents --%s and %s', (flag, env) => {
    const options = docText('docs/options.md');
    expect(options).toMatch(new RegExp(`\`--${flag}[ \`]`));
    expect(options).toContain(`\`${env}\``);
  });

  test('the sample response is the golden body it claims to be', () => {
    const golden = readFileSync(resolve(__dirname, '..', '..', 'fixtures', 'golden', 'calls-1.json'), 'utf8').trim();
    expect(docText('docs/endpoints.md')).toContain(`\`\`\`json\n${golden}\n\`\`\``);
  });

  test.each(Object.entries({ ...routes, ...adminRoutes }))('documents the %s route', (_name, pattern) => {
    const shown = asDocPath(pattern).replace('{.json}', '.json');
    expect(docs).toContain(shown);
  });
});

/** The anchors GitHub makes of a Markdown file's headings (fenced code left out). */
function headingSlugs(text: string): string[] {
  let fenced = false;
  const slugs: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#+ (.*)$/.exec(line);
    if (m !== null)
      slugs.push(
        (m[1] as string)
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replaceAll(' ', '-'),
      );
  }
  return slugs;
}

describe('ARCHITECTURE.md stays true', () => {
  test('every file:function hop of a request names a file of src/ that defines it', () => {
    const doc = readFileSync(resolve(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const hops = [...doc.matchAll(/`([\w./-]+\.ts):([\w.]+)`/g)].map((m) => [m[1] as string, m[2] as string] as const);
    expect(hops.length).toBeGreaterThan(15);
    const missing = hops.filter(([file, name]) => {
      const path = resolve(ROOT, 'src', file);
      if (!existsSync(path)) return true;
      // `Class.method`: the class and its method; otherwise a function, const or class of that name.
      const [owner, member] = name.split('.') as [string, string | undefined];
      const text = readFileSync(path, 'utf8');
      const defines = new RegExp(`(function\\*?|const|class|let|type|interface) ${owner}\\b`).test(text);
      return !defines || (member !== undefined && !new RegExp(`\\b${member}\\(`).test(text));
    });
    expect(missing).toEqual([]);
  });
});
