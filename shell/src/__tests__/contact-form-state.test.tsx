/**
 * The contact form as the site server answers a form posted without JavaScript: rendered on the
 * server in a visitor's state, then adopted in the browser from the state in the page, with
 * nothing redrawn (a mismatch would make React throw the server's markup, and what was typed,
 * away).
 */
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { CONTACT_MESSAGES } from '@site/contracts/contact';
import { ContactForm } from '../pages/contact/ContactForm';
import {
  FORM_STATE_ELEMENT,
  ServerFormState,
  type ContactFormState,
} from '../pages/contact/form-state';

const field = (name: string) => screen.getByRole('textbox', { name });

/** Puts the server's page of the form in the document, and adopts it as the browser does. */
async function serveAndAdopt(state: ContactFormState) {
  const html = renderToString(
    <ServerFormState value={state}>
      <ContactForm />
    </ServerFormState>,
  );
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = FORM_STATE_ELEMENT;
  script.textContent = JSON.stringify(state);
  document.body.append(script);
  const serverMarkup = root.innerHTML;
  const problems: unknown[] = [];
  await act(async () => {
    hydrateRoot(root, <ContactForm />, {
      onRecoverableError: (error) => problems.push(error),
    });
  });
  return { root, serverMarkup, problems };
}

afterEach(() => {
  document.body.innerHTML = '';
  jest.restoreAllMocks();
});

test('a form sent back with errors is adopted as served: what was typed, each field’s message, the general notice', async () => {
  const { root, problems } = await serveAndAdopt({
    values: { fullName: 'Ann Lee', emailAddress: 'ann@', subject: '', message: 'Hello there' },
    errors: {
      emailAddress: CONTACT_MESSAGES.emailInvalid,
      subject: CONTACT_MESSAGES.subjectRequired,
    },
    notice: { kind: 'invalid' },
  });
  expect(problems).toEqual([]);
  const form = root.querySelector('form');
  expect(form).toHaveAttribute('method', 'post');
  expect(form).toHaveAttribute('action', '/contact');
  expect(screen.getByTestId('form-invalid')).toHaveTextContent(CONTACT_MESSAGES.fillMissing);
  expect(field('Full name')).toHaveValue('Ann Lee');
  expect(field('Message')).toHaveValue('Hello there');
  expect(field('Email address')).toHaveAttribute('aria-invalid', 'true');
  expect(field('Email address')).toHaveAccessibleDescription(
    expect.stringContaining(CONTACT_MESSAGES.emailInvalid),
  );
  expect(field('Subject')).toHaveAccessibleDescription(
    expect.stringContaining(CONTACT_MESSAGES.subjectRequired),
  );
  expect(field('Full name')).not.toHaveAttribute('aria-invalid');

  // A field's message from the server goes once the field is changed.
  const user = userEvent.setup();
  await user.type(field('Subject'), 'Schools');
  expect(screen.queryByText(CONTACT_MESSAGES.subjectRequired)).not.toBeInTheDocument();
});

test('the sent state is adopted as served: the confirmation and a way to write another message', async () => {
  const { problems } = await serveAndAdopt({ sent: true });
  expect(problems).toEqual([]);
  expect(screen.getByRole('heading', { name: CONTACT_MESSAGES.sent })).toHaveAttribute(
    'tabindex',
    '-1',
  );
  expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  const another = screen.getByRole('link', { name: 'Write another message' });
  expect(another).toHaveAttribute('href', '/contact');
  await userEvent.setup().click(another);
  expect(field('Full name')).toHaveValue('');
  expect(field('Full name')).toHaveFocus();
});
