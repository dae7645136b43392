import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './process';

/**
 * The documentation: README first, then docs/ in the order its contents table lists them (the
 * order the shell examples run in: each leaves the default data as it found it).
 */
export const DOC_FILES = [
  'README.md',
  ...[
    'options',
    'endpoints',
    'admin-api',
    'clock',
    'sub-accounts',
    'sandboxes',
    'inspector',
    'operations',
    'determinism',
    'quirks',
    'clients',
    'twilio',
    'intercept',
    'production-data',
    'scale-out',
    'performance',
    'development',
    'CHANGELOG',
  ].map((name) => `docs/${name}.md`),
];

/** A documentation file's text. */
export const docText = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** Every documentation file's text, one after another. */
export const docsText = (): string => DOC_FILES.map(docText).join('\n');
