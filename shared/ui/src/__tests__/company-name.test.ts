/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { company } from '../company';

/**
 * Renaming the company must be one edit: its name is spelled in shared/ui/src/company.ts and nowhere
 * else. Every other file takes it from there (the pages, the mail defaults, the share cards, the
 * structured data) or, in prose, does without it.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const SOURCE = path.join(ROOT, 'shared', 'ui', 'src', 'company.ts');

/** Folders not scanned, and why. */
const SKIPPED_DIRS = new Set([
  '.git',
  // Installed packages and the build's output are not ours to write: a build writes the name from
  // company.ts into dist, and a rebuild writes the new one.
  'node_modules',
  'dist',
  // Local deployments, test reports and the mail-service's runtime data are generated too.
  'deploy',
  'test-results',
  // Copies of workspaces that browser tests build and deploy.
  '.tmp',
  'playwright-report',
  '.data',
  'mailbox',
  // A unit test may spell the value it expects, literally, so that it checks the code instead of
  // repeating it: the mail-service's tests read the delivered From header that way. A rename
  // fails those tests loudly rather than slipping past them.
  '__tests__',
]);

/**
 * The lockfile records package names, never the company's; it is skipped because it is large and
 * written by npm. Binary files (fonts, images) cannot spell a name in text.
 */
const SKIPPED_FILES = new Set(['package-lock.json']);
const TEXT = /\.(c|m)?(j|t)sx?$|\.(json|md|html|css|txt|yml|yaml|svg|example|sh)$|^\.[a-z]+rc$/i;

function* textFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* textFiles(full);
    } else if (entry.isFile() && !SKIPPED_FILES.has(entry.name) && TEXT.test(entry.name)) {
      yield full;
    }
  }
}

describe('the company name', () => {
  it('is spelled in shared/ui/src/company.ts and in no other file of the repository', () => {
    const spelled = new RegExp(company.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
    const files = [...textFiles(ROOT)];
    expect(files).toContain(SOURCE);
    const elsewhere = files
      .filter((file) => file !== SOURCE && spelled.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(ROOT, file));
    expect(elsewhere).toEqual([]);
  });
});
