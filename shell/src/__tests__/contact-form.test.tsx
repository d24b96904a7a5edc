import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentProps } from 'react';
import { CONTACT_FIELDS, CONTACT_LIMITS, CONTACT_MESSAGES } from '@site/contracts/contact';
import { ContactForm } from '../pages/contact/ContactForm';
import { formTokenUsed } from '../pages/contact/form-token';
import { EXTRA_CONTACT_FIELD as company } from '@site/build/testing/contact';

interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * The network boundary: records each request and answers as the mail-service would. The time
 * trap's endpoint answers `formToken` (404 by default: a mail-service without it).
 */
function fakeServer(answers: (FakeAnswer | Error)[], formToken: FakeAnswer = { status: 404 }) {
  const calls: { url: string; init?: RequestInit }[] = [];
  global.fetch = jest.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    if (String(url) === '/api/form-token') {
      return {
        ok: formToken.status < 300,
        status: formToken.status,
        json: async () => formToken.body,
        headers: new Headers(),
      } as Response;
    }
    if (String(url) === '/api/csrf') {
      document.cookie = 'XSRF-TOKEN=token-123';
      return {
        ok: true,
        status: 200,
        json: async () => ({ token: 'token-123' }),
        headers: new Headers(),
      } as Response;
    }
    const answer = answers.shift() ?? { status: 500 };
    if (answer instanceof Error) throw answer;
    return {
      ok: answer.status < 300,
      status: answer.status,
      json: async () => answer.body,
      headers: new Headers(answer.headers ?? {}),
    } as Response;
  }) as typeof fetch;
  return calls;
}

const field = (name: string) => screen.getByRole('textbox', { name });

/** The form on the page, and a visitor to use it. */
function renderForm(props: ComponentProps<typeof ContactForm> = {}) {
  const user = userEvent.setup();
  render(<ContactForm {...props} />);
  return user;
}

/** Focuses a field and leaves it by Tab without typing, as a visitor who skips it. */
async function skip(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(field(name));
  await user.tab();
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field('Full name'), 'Thandi Nkosi');
  await user.type(field('Email address'), 'thandi@example.co.za');
  await user.type(field('Subject'), 'Learning platform');
  await user.type(field('Message'), 'We run six schools.');
}

beforeEach(() => {
  // Each test is a new visit: no time trap token asked for yet.
  formTokenUsed();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  jest.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

describe('ContactForm: validation', () => {
  it('shows no errors before a field is touched', () => {
    render(<ContactForm />);
    expect(screen.queryByText(CONTACT_MESSAGES.nameRequired)).not.toBeInTheDocument();
    expect(screen.getByText(CONTACT_MESSAGES.allRequired)).toBeInTheDocument();
  });

  it('shows a field’s error once it has been touched and left empty', async () => {
    const user = renderForm();
    await skip(user, 'Full name');
    expect(await screen.findByText(CONTACT_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(field('Full name')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Full name')).toHaveAccessibleDescription(
      expect.stringContaining(CONTACT_MESSAGES.nameRequired),
    );
    expect(screen.queryByText(CONTACT_MESSAGES.subjectRequired)).not.toBeInTheDocument();
  });

  it('tells an empty e-mail from an invalid one', async () => {
    const user = renderForm();
    await skip(user, 'Email address');
    expect(await screen.findByText(CONTACT_MESSAGES.emailRequired)).toBeInTheDocument();
    await user.type(field('Email address'), 'not-an-address');
    expect(await screen.findByText(CONTACT_MESSAGES.emailInvalid)).toBeInTheDocument();
    await user.clear(field('Email address'));
    await user.type(field('Email address'), 'ok@example.com');
    await waitFor(() =>
      expect(screen.queryByText(CONTACT_MESSAGES.emailInvalid)).not.toBeInTheDocument(),
    );
  });

  it('an invalid submit sets formInvalid: the general notice and every field’s error show, focus goes to the first', async () => {
    const calls = fakeServer([]);
    const user = renderForm();
    await user.type(field('Email address'), 'x@example.com');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByTestId('form-invalid')).toHaveTextContent(
      CONTACT_MESSAGES.fillMissing,
    );
    expect(screen.getByText(CONTACT_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(CONTACT_MESSAGES.subjectRequired)).toBeInTheDocument();
    expect(screen.getByText(CONTACT_MESSAGES.bodyRequired)).toBeInTheDocument();
    expect(field('Full name')).toHaveFocus();
    expect(calls.filter((c) => c.url === '/api/sendmail')).toHaveLength(0);
  });

  it('shows the limits before they are reached and counts the message’s characters', async () => {
    const user = renderForm();
    expect(screen.getByText(`Up to ${CONTACT_LIMITS.name} characters.`)).toBeInTheDocument();
    await user.type(field('Message'), 'Hello');
    expect(field('Message')).toHaveAccessibleDescription(
      `Up to ${CONTACT_LIMITS.body} characters. 5 used so far.`,
    );
  });
});

describe('ContactForm: sending', () => {
  it('sends the mapped payload with the CSRF header and an idempotency key, then the confirmation replaces the form', async () => {
    const calls = fakeServer([{ status: 202, body: { messageId: 'm-1' } }]);
    const onSent = jest.fn();
    const user = renderForm({ onSent });
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByTestId('form-invalid')).toBeInTheDocument();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    const confirmation = await screen.findByRole('heading', { name: CONTACT_MESSAGES.sent });
    expect(confirmation).toHaveFocus();
    expect(screen.getByText(/reply to you by email within one working day/)).toBeInTheDocument();
    expect(screen.queryByTestId('form-invalid')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send message' })).not.toBeInTheDocument();
    const post = calls.find((c) => c.url === '/api/sendmail');
    expect(post?.init?.method).toBe('POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({
      user: { name: 'Thandi Nkosi', email: 'thandi@example.co.za' },
      message: { subject: 'Learning platform', body: 'We run six schools.' },
    });
    const headers = post?.init?.headers as Record<string, string>;
    expect(headers['X-XSRF-TOKEN']).toBe('token-123');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['Idempotency-Key']).toMatch(/\S{8,}/);
    expect(onSent).toHaveBeenCalledWith('m-1');

    // Another message: the form is back, empty, from its first field.
    await user.click(screen.getByRole('link', { name: 'Write another message' }));
    expect(field('Full name')).toHaveValue('');
    expect(field('Message')).toHaveValue('');
    expect(field('Full name')).toHaveFocus();
    expect(screen.queryByText(CONTACT_MESSAGES.sent)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
  });

  it('asks once for the time trap’s token when the form is first used and sends it with the message', async () => {
    const calls = fakeServer([{ status: 202, body: { messageId: 'm-t' } }], {
      status: 200,
      body: { token: 'started-at-signed' },
    });
    const user = renderForm();
    expect(calls).toHaveLength(0);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await screen.findByRole('heading', { name: CONTACT_MESSAGES.sent });
    expect(calls.filter((c) => c.url === '/api/form-token')).toHaveLength(1);
    const post = calls.find((c) => c.url === '/api/sendmail');
    expect(JSON.parse(String(post?.init?.body))).toMatchObject({
      formStartedToken: 'started-at-signed',
    });
  });

  it('sends without the token when the mail-service has no token endpoint (404)', async () => {
    const calls = fakeServer([{ status: 202, body: { messageId: 'm-n' } }]);
    const user = renderForm();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await screen.findByRole('heading', { name: CONTACT_MESSAGES.sent });
    const post = calls.find((c) => c.url === '/api/sendmail');
    expect(JSON.parse(String(post?.init?.body))).not.toHaveProperty('formStartedToken');
  });

  it('sends once however often Send is pressed', async () => {
    const calls = fakeServer([{ status: 202, body: { messageId: 'm-2' } }]);
    const user = renderForm();
    await fillValid(user);
    const send = screen.getByRole('button', { name: 'Send message' });
    await Promise.all([user.click(send), user.click(send), user.keyboard('{Enter}')]);
    await screen.findByRole('heading', { name: CONTACT_MESSAGES.sent });
    expect(calls.filter((c) => c.url === '/api/sendmail')).toHaveLength(1);
  });

  it('keeps what was typed when sending fails, says so, and sends again with the same key', async () => {
    const calls = fakeServer([
      new TypeError('Failed to fetch'),
      { status: 202, body: { messageId: 'm-3' } },
    ]);
    const user = renderForm();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(/Your message was not sent/)).toBeInTheDocument();
    expect(field('Full name')).toHaveValue('Thandi Nkosi');
    expect(field('Message')).toHaveValue('We run six schools.');
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(CONTACT_MESSAGES.sent)).toBeInTheDocument();
    const keys = calls
      .filter((c) => c.url === '/api/sendmail')
      .map((c) => (c.init?.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('says when to try again after a 429', async () => {
    fakeServer([
      { status: 429, body: { error: 'rate_limited' }, headers: { 'Retry-After': '300' } },
    ]);
    const user = renderForm();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(/try again in about 5 minutes/)).toBeInTheDocument();
    expect(field('Subject')).toHaveValue('Learning platform');
  });

  it('shows the field errors the service returned with a 400', async () => {
    fakeServer([
      {
        status: 400,
        body: {
          error: 'invalid_message',
          message: CONTACT_MESSAGES.fillMissing,
          fields: [{ path: 'user.email', message: CONTACT_MESSAGES.emailInvalid }],
        },
      },
    ]);
    const user = renderForm();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(CONTACT_MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(field('Email address')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Email address')).toHaveFocus();
  });
});

describe('ContactForm: fields from the contact table', () => {
  it('a field added to the table is shown, checked and sent with nothing else changed', async () => {
    const calls = fakeServer([{ status: 202, body: { messageId: 'm-company' } }]);
    const user = renderForm({ fields: [...CONTACT_FIELDS, company] });
    expect(field('Company')).toHaveAttribute('autocomplete', 'organization');
    expect(field('Company')).toHaveAccessibleDescription('Up to 120 characters.');
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Please enter your company..')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/sendmail')).toHaveLength(0);

    await user.type(field('Company'), 'Highveld Mining');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await screen.findByTestId('message-sent');
    const sent = calls.find((c) => c.url === '/api/sendmail');
    expect(JSON.parse(String(sent?.init?.body))).toMatchObject({
      user: { name: 'Thandi Nkosi', email: 'thandi@example.co.za', company: 'Highveld Mining' },
      message: { subject: 'Learning platform', body: 'We run six schools.' },
    });
  });
});
