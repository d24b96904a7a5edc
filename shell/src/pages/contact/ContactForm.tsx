import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { useForm } from 'react-hook-form';
import { company, phoneHref } from '@site/ui';
import {
  CONTACT_FIELDS,
  CONTACT_MESSAGES,
  contactSchemas,
  toPayload,
  type ContactFieldSpec,
  type ContactMessage,
} from '@site/contracts/contact';
import { contactContent, retryWording } from '../../content/contact';
import { privacyContent } from '../../content/privacy';
import { shellRoutes } from '../../content/shell-routes';
import {
  SENT_ANCHOR,
  formStateUsed,
  useInitialFormState,
  type ContactFormState,
} from './form-state';
import { formStarted, formStartedToken, formTokenUsed } from './form-token';
import { sendMessage } from './send-message';
import { zodResolver } from './zod-resolver';

const c = contactContent.form;
/** The form's values: one string per field of its table. */
type FormValues = Record<string, string>;

const emptyValues = (fields: readonly ContactFieldSpec[]): FormValues =>
  Object.fromEntries(fields.map((f) => [f.name, '']));

/** The site's own table, and its schema built once. */
const SITE_SCHEMA = contactSchemas(CONTACT_FIELDS).form as unknown as ReturnType<
  typeof contactSchemas<readonly ContactFieldSpec[]>
>['form'];

type Outcome =
  | { kind: 'none' }
  | { kind: 'sent' }
  /** `elsewhere`: the form cannot take the message now, so the notice gives other ways to write. */
  | { kind: 'error'; text: string; fieldsToFix?: boolean; elsewhere?: boolean };

/** How long a send waits for the form's start token before it goes without. */
const TOKEN_WAIT_MS = 3000;

/** The outcome a form the server answered starts with. */
function initialOutcome(state: ContactFormState): Outcome {
  const notice = state.notice;
  switch (notice?.kind) {
    case 'send-again':
      return { kind: 'error', text: c.sendAgain };
    case 'refused':
      return { kind: 'error', text: c.refused };
    case 'rate-limited':
      return {
        kind: 'error',
        text: c.rateLimited(retryWording(notice.retryAfterSeconds)),
        elsewhere: true,
      };
    case 'failed':
      return { kind: 'error', text: notice.server ? c.failedServer : c.failed, elsewhere: true };
    default:
      return { kind: 'none' };
  }
}

/** The company's address (and phone), for a message the form cannot take now. */
function OtherWays() {
  return (
    <p data-testid="other-ways">
      {c.otherWays} <a href={`mailto:${company.email}`}>{company.email}</a>
      {company.phone.display ? (
        <>
          {' '}
          {c.orCall} <a href={phoneHref()}>{company.phone.display}</a>
        </>
      ) : null}
      .
    </p>
  );
}

const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/**
 * The contact form. Rules, limits and texts come from the shared schema, the same one the
 * mail-service checks. A field's error shows once the field has been touched (or a submit was
 * attempted); an invalid submit sets formInvalid and shows the general notice; a send shows success
 * only when the mail-service has accepted the message (202), and a failure keeps what was typed.
 * A sent message replaces the form with the confirmation, which takes the focus.
 *
 * Without JavaScript it is a plain form posted to the contact page (the site server validates with
 * the same schema and answers with this form as it would show here); with it, the submit is
 * handled here and never reaches the browser.
 */
export function ContactForm({
  onSent,
  fields = CONTACT_FIELDS,
}: {
  onSent?: (messageId: string) => void;
  /** The fields, as the contact table defines them (the site's by default). */
  fields?: readonly ContactFieldSpec[];
}) {
  const id = useId();
  const [schema] = useState(() =>
    fields === CONTACT_FIELDS ? SITE_SCHEMA : contactSchemas(fields).form,
  );
  const [EMPTY] = useState(() => emptyValues(fields));
  const FIELDS = fields.map((f) => f.name);
  const firstField = FIELDS[0]!;
  const textArea = fields.find((f) => f.control === 'textarea')?.name;
  const fromServer = useInitialFormState();
  const [initial] = useState(fromServer);
  const [formInvalid, setFormInvalid] = useState(initial.notice?.kind === 'invalid');
  const [messageSent, setMessageSent] = useState(initial.sent === true);
  const [outcome, setOutcome] = useState<Outcome>(() => initialOutcome(initial));
  // The fields' messages from the server, each shown until its field is changed.
  const [serverErrors, setServerErrors] = useState<Record<string, string | undefined>>(
    initial.errors ?? {},
  );
  // What the visitor typed, as the server sent it back: in the markup, so it shows before (and
  // without) this code.
  const [typed, setTyped] = useState<FormValues | undefined>(initial.values);
  // The character count is shown once this code runs: the server's page says only the limit.
  const [counting, setCounting] = useState(false);
  const honeypot = useRef<HTMLInputElement>(null);
  const idempotencyKey = useRef<string | null>(null);
  const inFlight = useRef(false);
  const statusRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const sentHeading = useRef<HTMLHeadingElement>(null);
  // Where the focus goes after the form and the confirmation trade places.
  const focusNext = useRef<'confirmation' | 'form' | null>(null);

  const {
    register,
    handleSubmit,
    reset,
    watch,
    setError,
    setFocus,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<FormValues>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: initial.values ?? EMPTY,
    shouldFocusError: true,
  });

  // A changed message is a new message: it gets a new idempotency key when it is sent.
  useEffect(() => {
    const subscription = watch((_values, { name }) => {
      idempotencyKey.current = null;
      if (name)
        setServerErrors((errors) => (errors[name] ? { ...errors, [name]: undefined } : errors));
    });
    return () => subscription.unsubscribe();
  }, [watch]);

  useEffect(() => {
    setCounting(true);
    // The visitor may have reached the form (or typed in it) before this code arrived.
    const form = formRef.current;
    if (form && (form.contains(document.activeElement) || new FormData(form).get('message')))
      formStarted();
    return formStateUsed;
  }, []);

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (messageSent && target === 'confirmation') sentHeading.current?.focus();
    if (!messageSent && target === 'form') setFocus(firstField);
  }, [messageSent, setFocus, firstField]);

  const messageLength = (textArea ? watch(textArea)?.length : 0) ?? 0;

  const onValid = async (values: FormValues) => {
    if (inFlight.current || messageSent) return;
    inFlight.current = true;
    setFormInvalid(false);
    setOutcome({ kind: 'none' });
    idempotencyKey.current ??= newKey();
    try {
      const token = await formStartedToken(TOKEN_WAIT_MS);
      const result = await sendMessage(
        {
          ...(toPayload(fields, values) as unknown as ContactMessage),
          ...(honeypot.current?.value ? { website: honeypot.current.value } : {}),
          ...(token ? { formStartedToken: token } : {}),
        },
        idempotencyKey.current,
      );
      if (result.ok) {
        if (process.env.NODE_ENV !== 'production')
          console.log('Message accepted, messageId:', result.messageId);
        idempotencyKey.current = null;
        formTokenUsed();
        focusNext.current = 'confirmation';
        setMessageSent(true);
        setOutcome({ kind: 'sent' });
        setServerErrors({});
        setTyped(undefined);
        reset(EMPTY);
        onSent?.(result.messageId);
      } else if (result.kind === 'invalid') {
        let first: string | null = null;
        for (const field of FIELDS) {
          const message = (result.fields as Record<string, string | undefined>)[field];
          if (message) {
            setError(field, { type: 'server', message });
            first ??= field;
          }
        }
        setFormInvalid(true);
        setOutcome({ kind: 'error', text: c.rejected, fieldsToFix: true });
        if (first) setFocus(first);
      } else if (result.kind === 'rate-limited') {
        setOutcome({
          kind: 'error',
          text: c.rateLimited(retryWording(result.retryAfterSeconds)),
          elsewhere: true,
        });
      } else {
        setOutcome({
          kind: 'error',
          text: result.status && result.status >= 500 ? c.failedServer : c.failed,
          elsewhere: true,
        });
      }
    } finally {
      inFlight.current = false;
    }
  };

  const onInvalid = () => {
    setFormInvalid(true);
    setOutcome({ kind: 'none' });
  };

  useEffect(() => {
    // A failure is announced and focused; when fields need fixing, focus goes to the first of them.
    if (outcome.kind === 'error' && !outcome.fieldsToFix) statusRef.current?.focus();
  }, [outcome]);

  const startAnother = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setMessageSent(false);
    setOutcome({ kind: 'none' });
    setFormInvalid(false);
    setServerErrors({});
    setTyped(undefined);
    reset(EMPTY);
    focusNext.current = 'form';
    // The address of a form sent without this code (`?sent=1`) is the contact page's again.
    if (window.location.search || window.location.hash)
      window.history.replaceState(window.history.state, '', window.location.pathname);
  };

  const shownError = (field: string) =>
    (touchedFields[field] || isSubmitted) && errors[field]?.message
      ? errors[field]?.message
      : serverErrors[field];

  if (messageSent) {
    return (
      <section
        className="contact-form contact-form--sent"
        aria-labelledby={SENT_ANCHOR}
        data-testid="message-sent"
      >
        <div className="form-notice form-notice--success">
          <h2 id={SENT_ANCHOR} ref={sentHeading} tabIndex={-1} className="form-notice__title">
            {CONTACT_MESSAGES.sent}
          </h2>
          <p>{c.sentDetail}</p>
        </div>
        <p className="contact-form__actions">
          <a
            href={shellRoutes.contact.path}
            className="button button--secondary"
            onClick={startAnother}
          >
            {c.another}
          </a>
        </p>
      </section>
    );
  }

  return (
    <form
      ref={formRef}
      className="contact-form"
      method="post"
      action={shellRoutes.contact.path}
      noValidate
      onSubmit={handleSubmit(onValid, onInvalid)}
      onFocus={formStarted}
      onInput={formStarted}
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`}>{c.heading}</h2>
      <p className="contact-form__intro">{c.intro}</p>
      <p className="contact-form__required">{c.required}</p>

      <div className="contact-form__status" aria-live="polite" role="status">
        {formInvalid && (
          <p className="form-notice form-notice--error" data-testid="form-invalid">
            {CONTACT_MESSAGES.fillMissing}
          </p>
        )}
      </div>
      <div
        ref={statusRef}
        tabIndex={-1}
        className="contact-form__outcome"
        aria-live="assertive"
        role="alert"
      >
        {outcome.kind === 'error' && (
          <div className="form-notice form-notice--error">
            <p>{outcome.text}</p>
            {outcome.elsewhere && <OtherWays />}
          </div>
        )}
      </div>

      {fields.map((spec) => {
        const field = spec.name;
        const error = shownError(field);
        const hintId = `${id}-${field}-hint`;
        const errorId = `${id}-${field}-error`;
        const common = {
          id: `${id}-${field}`,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${errorId} ${hintId}` : hintId,
          autoComplete: spec.autoComplete,
          defaultValue: typed?.[field],
          ...register(field),
        };
        return (
          <div className={error ? 'field field--invalid' : 'field'} key={field}>
            <label htmlFor={`${id}-${field}`}>{spec.label}</label>
            {spec.control === 'textarea' ? (
              <textarea rows={7} {...common} />
            ) : (
              <input
                type={spec.kind === 'email' ? 'email' : 'text'}
                inputMode={spec.kind === 'email' ? 'email' : undefined}
                {...common}
              />
            )}
            <p className="field__hint" id={hintId}>
              {spec.control === 'textarea' && counting
                ? `${spec.hint} ${c.charactersUsed(messageLength)}`
                : spec.hint}
            </p>
            {error && (
              <p className="field__error" id={errorId}>
                {error}
              </p>
            )}
          </div>
        );
      })}

      {/* Spam protection that costs a visitor nothing: people never see this field; bots fill it. */}
      <div className="contact-form__trap" aria-hidden="true">
        <label htmlFor={`${id}-website`}>{c.honeypot}</label>
        <input
          ref={honeypot}
          id={`${id}-website`}
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>

      <div className="contact-form__actions">
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {isSubmitting ? c.sending : c.send}
        </button>
        <p className="contact-form__privacy">
          {privacyContent.formNote}
          <a href={shellRoutes.privacy.path}>{privacyContent.formLink}</a>
        </p>
      </div>
    </form>
  );
}
