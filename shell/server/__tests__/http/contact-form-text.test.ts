/**
 * @jest-environment node
 */
import { FORM_STATE_ELEMENT } from '../../../src/pages/contact/form-state';
import { RandomText, fuzzSeed } from '../random-text';
import { SITE_URL, startFixture, type SiteFixture } from './site-fixture';

/**
 * Whatever a visitor types into the form without JavaScript is text: the contact page comes back
 * with it as typed, rendered by the shell's processes, and no post ever ends one of them.
 */
let fixture: SiteFixture;
const seed = fuzzSeed();

beforeAll(async () => {
  fixture = await startFixture();
}, 180_000);

afterAll(() => fixture?.close());

const VALID = {
  fullName: 'Ada Lovelace',
  emailAddress: 'ada@example.com',
  subject: 'A project',
  message: 'We would like to talk about a data platform for our clinics.',
};

/** The form as a browser posts it, without the form's cookie: 422, the form again as typed. */
const post = (fields: Record<string, string>) =>
  fixture.inject({
    method: 'POST',
    url: '/contact',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE_URL },
    payload: new URLSearchParams(fields).toString(),
  });

const shellProcesses = () => fixture.site.app.renderPools().shell.processes;

function valuesIn(html: string): Record<string, string> {
  const json = new RegExp(
    `<script type="application/json" id="${FORM_STATE_ELEMENT}">([\\s\\S]*?)</script>`,
  ).exec(html)?.[1];
  if (json === undefined) throw new Error('the page holds no form state');
  return (JSON.parse(json) as { values: Record<string, string> }).values;
}

const unescapeHtml = (s: string) =>
  s.replace(/&(#x?[0-9a-f]+|quot|amp|lt|gt);/gi, (_, e: string) => {
    const named: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>' };
    if (named[e] !== undefined) return named[e];
    return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });

/** What the render process drew in the message's box (React's leading newline of a textarea aside). */
function messageBox(html: string): string {
  const inner = /<textarea[^>]*name="message"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1];
  if (inner === undefined) throw new Error('the page has no message box');
  return unescapeHtml(inner.startsWith('\n') ? inner.slice(1) : inner);
}

test('a line separator (U+2028) in a field: the form comes back as typed, and no render process ends', async () => {
  await fixture.inject('/contact');
  const before = shellProcesses();
  const typed = { ...VALID, fullName: 'Ada\u2028Lovelace', message: 'Two\u2029paragraphs' };
  const answer = await post(typed);
  expect(answer.statusCode).toBe(422);
  expect(valuesIn(answer.body)).toEqual(typed);
  expect(messageBox(answer.body)).toBe('Two\u2029paragraphs');
  expect(shellProcesses()).toEqual(before);
  // The page everyone else gets is unaffected.
  expect((await fixture.inject('/contact')).statusCode).toBe(200);
  expect(shellProcesses()).toEqual(before);
});

test(`random text in every field crosses intact (seed ${seed}), and no render process ends`, async () => {
  const random = new RandomText(seed);
  await fixture.inject('/contact');
  const before = shellProcesses();
  for (let i = 0; i < 40; i++) {
    const typed = {
      fullName: random.string(80),
      emailAddress: random.string(40),
      subject: random.string(120),
      message: random.string(2000),
    };
    const answer = await post(typed);
    const where = `seed ${seed}, post ${i}`;
    expect([where, answer.statusCode]).toEqual([where, 422]);
    expect([where, valuesIn(answer.body)]).toEqual([where, typed]);
    expect([where, messageBox(answer.body)]).toEqual([where, typed.message]);
  }
  expect(shellProcesses()).toEqual(before);
}, 120_000);
