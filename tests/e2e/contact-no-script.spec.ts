/**
 * The contact form without JavaScript (and with JavaScript whose form code never arrives): a real
 * form posted to the site server, which answers it as the form would, sends it through the
 * mail-service to the company's mailbox and shows the sent state; and, with JavaScript, the
 * confirmation that replaces the form.
 */
import { expect, test, type Page, type Response } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { TestDeployment } from '../support/deployment';
import { expectOtherWays } from '../support/other-ways';
import { ready } from '../support/ready';
import { releaseRoutes } from '../support/routes';
import { receivedMessages } from '../support/smtp';

const SENT = 'Your message has been sent..';
const NEXT =
  'Thank you. We have received it and will reply to you by email within one working day.';

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name });

async function fillValid(page: Page, subject: string, body: string) {
  await textbox(page, 'Full name').fill('Lerato Dlamini');
  await textbox(page, 'Email address').fill('lerato.dlamini@example.co.za');
  await textbox(page, 'Subject').fill(subject);
  await textbox(page, 'Message').fill(body);
}

/** Presses Send and returns the answer to the form's post. */
async function sendForm(page: Page): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/contact',
    ),
    page.getByRole('button', { name: 'Send message' }).click(),
  ]);
  return response;
}

/** Waits for the message with this subject in the company's mailbox; returns it parsed. */
async function delivered(subject: string) {
  let found: Awaited<ReturnType<typeof simpleParser>> | undefined;
  await expect
    .poll(
      async () => {
        const parsed = await Promise.all(receivedMessages().map((raw) => simpleParser(raw)));
        found = parsed.find((m) => m.subject?.includes(subject));
        return Boolean(found);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** The sent state: the spec's message, what happens next, a way to write another message. */
async function expectSentState(page: Page) {
  await expect(page.getByRole('heading', { name: SENT })).toBeVisible();
  await expect(page.getByText(NEXT)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Write another message' })).toHaveAttribute(
    'href',
    '/contact',
  );
  await expect(textbox(page, 'Full name')).toHaveCount(0);
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a visitor sends a message: it reaches the mailbox and the sent state shows', async ({
    page,
  }) => {
    const subject = `Posted without scripts ${Date.now()}`;
    await page.goto('/contact');
    await fillValid(page, subject, 'We would like a quote.\nOur office is in Durban.');
    const response = await sendForm(page);
    // The post is answered with a redirect to the sent state (the browser follows it).
    expect(response.status()).toBe(303);
    await expect(page).toHaveURL(/\/contact\?sent=1#message-sent$/);
    await expectSentState(page);

    const mail = await delivered(subject);
    expect(mail.replyTo?.value).toEqual([
      { address: 'lerato.dlamini@example.co.za', name: 'Lerato Dlamini' },
    ]);
    expect(mail.text).toContain('We would like a quote.');
    expect(mail.text).toContain('Our office is in Durban.');

    // Back to the form: empty again.
    await page.getByRole('link', { name: 'Write another message' }).click();
    await expect(textbox(page, 'Full name')).toHaveValue('');
  });

  test('an empty submit is answered 422 with the general notice and each field’s message, and what was typed kept', async ({
    page,
  }) => {
    await page.goto('/contact');
    await textbox(page, 'Full name').fill('Lerato Dlamini');
    await textbox(page, 'Email address').fill('lerato@');
    const response = await sendForm(page);
    expect(response.status()).toBe(422);
    expect(response.headers()['cache-control']).toBe('no-store');

    await expect(page.getByText('Please fill in the missing fields..')).toBeVisible();
    await expect(textbox(page, 'Full name')).toHaveValue('Lerato Dlamini');
    await expect(textbox(page, 'Email address')).toHaveValue('lerato@');
    await expect(textbox(page, 'Full name')).not.toHaveAttribute('aria-invalid');
    for (const [name, message] of [
      ['Email address', 'Please enter a valid email address..'],
      ['Subject', 'Please enter a subject..'],
      ['Message', 'Please enter your message..'],
    ] as const) {
      await expect(textbox(page, name)).toHaveAttribute('aria-invalid', 'true');
      await expect(textbox(page, name)).toHaveAccessibleDescription(
        new RegExp(message.replace(/\./g, '\\.')),
      );
    }

    // Fixed and sent again from the answered page: sent.
    const subject = `Fixed without scripts ${Date.now()}`;
    await textbox(page, 'Email address').fill('lerato@example.co.za');
    await textbox(page, 'Subject').fill(subject);
    await textbox(page, 'Message').fill('Second try.');
    expect((await sendForm(page)).status()).toBe(303);
    await expectSentState(page);
    await delivered(subject);
  });

  test('a post from another site is refused, and says why', async ({ page }) => {
    const forged = `Forged ${Date.now()}`;
    // A page on another origin with a copy of the form, posting to the site.
    await page.route('http://elsewhere.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Elsewhere</title>
          <form method="post" action="http://localhost:3000/contact">
            <input name="fullName" value="Mallory">
            <input name="emailAddress" value="mallory@example.com">
            <input name="subject" value="${forged}">
            <textarea name="message">Sent from another site.</textarea>
            <button>Send message</button>
          </form>`,
      }),
    );
    await page.goto('http://localhost:3000/contact');
    await page.goto('http://elsewhere.test/');
    const response = await sendForm(page);
    expect(response.status()).toBe(403);
    await expect(page.getByRole('alert')).toContainText(
      'messages can only be sent from the contact form on this website',
    );
    // Nothing of the forged post is shown back.
    await expect(textbox(page, 'Full name')).toHaveValue('');
    // A message posted after it from the site's own form arrives: the outbox delivers one
    // visitor's messages in the order they came in, so the forged one, had it been taken, would
    // have arrived first.
    const after = `After the forged post ${Date.now()}`;
    await page.goto('/contact');
    await fillValid(page, after, 'Posted from the contact form itself.');
    expect((await sendForm(page)).status()).toBe(303);
    await delivered(after);
    const parsed = await Promise.all(receivedMessages().map((raw) => simpleParser(raw)));
    expect(parsed.filter((m) => m.subject?.includes(forged))).toEqual([]);
  });
});

test.describe('without JavaScript, on a site of its own', () => {
  test.use({ javaScriptEnabled: false });

  test('the same form sent twice is one message; past the rate limit the visitor is told when to try again', async ({
    page,
  }) => {
    // A site and a mail-service of its own to start, and four messages: longer than most.
    test.setTimeout(120_000);
    const deployment = new TestDeployment();
    try {
      await deployment.writeManifest({});
      const mail = await deployment.startMailService(3437, 'http://localhost:3436', {
        RATE_LIMIT_MAX: '2',
      });
      await deployment.startSite(3436, { apiTarget: mail });
      // One address for the browser and its requests, so the mail-service counts one visitor.
      const site = 'http://127.0.0.1:3436';
      const subject = `Pressed twice ${Date.now()}`;
      await page.goto(`${site}/contact`);
      await fillValid(page, subject, 'Sent once, whatever happens.');
      // The form's post as the browser makes it, twice (a double click, a reload of the answer).
      const form = {
        fullName: 'Lerato Dlamini',
        emailAddress: 'lerato.dlamini@example.co.za',
        subject,
        message: 'Sent once, whatever happens.',
        website: '',
      };
      for (let i = 0; i < 2; i++) {
        // With the Fetch Metadata of a form's submission in its tab, as the browser sends it.
        const answer = await page.request.post(`${site}/contact`, {
          form,
          headers: {
            Origin: site,
            'Sec-Fetch-Site': 'same-origin',
            'Sec-Fetch-Mode': 'navigate',
            'Sec-Fetch-Dest': 'document',
          },
          maxRedirects: 0,
        });
        expect(answer.status()).toBe(303);
      }
      await delivered(subject);

      // A second message counts against the limit of two; a third is refused, kept as typed.
      await page.goto(`${site}/contact`);
      await fillValid(page, `Second ${subject}`, 'Another message.');
      expect((await sendForm(page)).status()).toBe(303);
      // Once the second message has arrived, a second copy of the first would have too: the
      // outbox delivers one visitor's messages in the order they came in.
      await delivered(`Second ${subject}`);
      const copies = (await Promise.all(receivedMessages().map((raw) => simpleParser(raw)))).filter(
        (m) => m.subject?.endsWith(`: ${subject}`),
      );
      expect(copies).toHaveLength(1);
      await page.goto(`${site}/contact`);
      await fillValid(page, `Third ${subject}`, 'One too many.');
      const limited = await sendForm(page);
      expect(limited.status()).toBe(429);
      await expect(page.getByRole('alert')).toContainText(
        'several messages have come from your connection in a short time',
      );
      await expectOtherWays(page.getByRole('alert'));
      await expect(textbox(page, 'Message')).toHaveValue('One too many.');
    } finally {
      await deployment.close();
    }
  });

  test('with the mail-service down, the visitor is told the message was not sent and keeps the input', async ({
    page,
  }) => {
    const deployment = new TestDeployment();
    try {
      await deployment.writeManifest({});
      const site = await deployment.startSite(3438, { apiTarget: 'http://127.0.0.1:3439' });
      await page.goto(`${site}/contact`);
      await fillValid(page, 'SharePoint migration', 'We have 2 TB of documents to move.');
      const response = await sendForm(page);
      expect(response.status()).toBe(503);
      await expect(page.getByRole('alert')).toContainText(
        'Your message was not sent because our message service is not responding',
      );
      await expectOtherWays(page.getByRole('alert'));
      await expect(textbox(page, 'Message')).toHaveValue('We have 2 TB of documents to move.');
      await expect(page.getByRole('heading', { name: SENT })).toHaveCount(0);
    } finally {
      await deployment.close();
    }
  });
});

test('with JavaScript but the form’s code blocked, the form is posted and sent all the same', async ({
  page,
}) => {
  // The form's code and its form library never arrive.
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    if (/contact-form\./.test(route.request().url())) return route.abort('failed');
    try {
      const response = await route.fetch();
      const body = await response.text();
      if (body.includes('shouldUnregister')) return route.abort('failed');
      return route.fulfill({ response, body });
    } catch (error) {
      // A script still on its way when the post navigates away (the next group's warming, say)
      // is dropped with its page: nothing is left to answer.
      if (/disposed|closed|navigat/i.test(String(error))) return;
      throw error;
    }
  });
  const subject = `Form code blocked ${Date.now()}`;
  await page.goto('/contact');
  await ready(page);
  await fillValid(page, subject, 'The scripts of the form did not load.');
  const response = await sendForm(page);
  expect(response.status()).toBe(303);
  await expect(page).toHaveURL(/\/contact\?sent=1#message-sent$/);
  await expectSentState(page);
  const mail = await delivered(subject);
  expect(mail.text).toContain('The scripts of the form did not load.');
  await releaseRoutes(page);
});

test('with JavaScript, the confirmation replaces the form and takes the focus; another message starts from an empty form', async ({
  page,
}) => {
  const posts: string[] = [];
  let sent: Record<string, unknown> = {};
  page.on('request', (r) => {
    if (r.method() !== 'POST') return;
    posts.push(new URL(r.url()).pathname);
    sent = JSON.parse(r.postData() ?? '{}') as Record<string, unknown>;
  });
  const subject = `Sent with scripts ${Date.now()}`;
  await page.goto('/contact');
  await ready(page);
  // The form's code sends the time trap's token; the trap is short in the tests' deployment
  // (global-setup.ts), so no wait to look human.
  await fillValid(page, subject, 'Sent by the form’s own code.');
  await page.getByRole('button', { name: 'Send message' }).click();

  const confirmation = page.getByRole('heading', { name: SENT });
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toBeFocused();
  await expect(page.getByText(NEXT)).toBeVisible();
  await expect(textbox(page, 'Full name')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send message' })).toHaveCount(0);
  // Sent by the form's code as JSON to the mail-service, not posted by the browser.
  expect(posts).toEqual(['/api/sendmail']);
  // With the time trap's token, asked for when the form was first used.
  expect(sent.formStartedToken).toEqual(expect.any(String));
  expect(new URL(page.url()).pathname).toBe('/contact');
  await delivered(subject);

  await page.getByRole('link', { name: 'Write another message' }).click();
  await expect(textbox(page, 'Full name')).toBeFocused();
  for (const name of ['Full name', 'Email address', 'Subject', 'Message']) {
    await expect(textbox(page, name)).toHaveValue('');
  }
  await expect(page.getByRole('heading', { name: SENT })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send message' })).toBeEnabled();
});
