import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  contactFormSchema,
  toContactMessage,
  type ContactForm as ContactFormValues,
  type ContactFormField,
} from '@site/shared/contact';
import { contactContent, retryWording } from '../../content/contact';
import { sendMessage } from './send-message';
import { zodResolver } from './zod-resolver';

const c = contactContent.form;
const FIELDS: ContactFormField[] = ['fullName', 'emailAddress', 'subject', 'message'];
const EMPTY: ContactFormValues = { fullName: '', emailAddress: '', subject: '', message: '' };

type Outcome =
  { kind: 'none' } | { kind: 'sent' } | { kind: 'error'; text: string; fieldsToFix?: boolean };

const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/**
 * The contact form. Rules, limits and texts come from the shared schema, the same one the
 * mail-service checks. A field's error shows once the field has been touched (or a submit was
 * attempted); an invalid submit sets formInvalid and shows the general notice; a send shows success
 * only when the mail-service has accepted the message (202), and a failure keeps what was typed.
 */
export function ContactForm({ onSent }: { onSent?: (messageId: string) => void }) {
  const id = useId();
  const [formInvalid, setFormInvalid] = useState(false);
  const [messageSent, setMessageSent] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'none' });
  const honeypot = useRef<HTMLInputElement>(null);
  const idempotencyKey = useRef<string | null>(null);
  const inFlight = useRef(false);
  const statusRef = useRef<HTMLDivElement>(null);

  const {
    register,
    handleSubmit,
    reset,
    watch,
    setError,
    setFocus,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<ContactFormValues>({
    resolver: zodResolver(contactFormSchema),
    mode: 'onTouched',
    defaultValues: EMPTY,
    shouldFocusError: true,
  });

  // A changed message is a new message: it gets a new idempotency key when it is sent.
  useEffect(() => {
    const subscription = watch(() => {
      idempotencyKey.current = null;
    });
    return () => subscription.unsubscribe();
  }, [watch]);

  const messageLength = watch('message')?.length ?? 0;

  const onValid = async (values: ContactFormValues) => {
    if (inFlight.current || messageSent) return;
    inFlight.current = true;
    setFormInvalid(false);
    setOutcome({ kind: 'none' });
    idempotencyKey.current ??= newKey();
    try {
      const result = await sendMessage(
        toContactMessage(values, honeypot.current?.value ?? ''),
        idempotencyKey.current,
      );
      if (result.ok) {
        if (process.env.NODE_ENV !== 'production')
          console.log('Message accepted, messageId:', result.messageId);
        idempotencyKey.current = null;
        setMessageSent(true);
        setOutcome({ kind: 'sent' });
        reset(EMPTY);
        onSent?.(result.messageId);
      } else if (result.kind === 'invalid') {
        let first: ContactFormField | null = null;
        for (const field of FIELDS) {
          const message = result.fields[field];
          if (message) {
            setError(field, { type: 'server', message });
            first ??= field;
          }
        }
        setFormInvalid(true);
        setOutcome({ kind: 'error', text: c.rejected, fieldsToFix: true });
        if (first) setFocus(first);
      } else if (result.kind === 'rate-limited') {
        setOutcome({ kind: 'error', text: c.rateLimited(retryWording(result.retryAfterSeconds)) });
      } else {
        setOutcome({
          kind: 'error',
          text: result.status && result.status >= 500 ? c.failedServer : c.failed,
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
    // The answer is announced and focused; when fields need fixing, focus goes to the first of them.
    if (outcome.kind === 'sent' || (outcome.kind === 'error' && !outcome.fieldsToFix))
      statusRef.current?.focus();
  }, [outcome]);

  const startAnother = () => {
    setMessageSent(false);
    setOutcome({ kind: 'none' });
    setFormInvalid(false);
    reset(EMPTY);
    setFocus('fullName');
  };

  const shownError = (field: ContactFormField) =>
    (touchedFields[field] || isSubmitted) && errors[field]?.message
      ? errors[field]?.message
      : undefined;

  return (
    <form
      className="contact-form"
      noValidate
      onSubmit={handleSubmit(onValid, onInvalid)}
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
        {outcome.kind === 'sent' && (
          <div className="form-notice form-notice--success">
            <p className="form-notice__title">{CONTACT_MESSAGES.sent}</p>
            <p>{c.sentDetail}</p>
          </div>
        )}
        {outcome.kind === 'error' && (
          <p className="form-notice form-notice--error">{outcome.text}</p>
        )}
      </div>

      {FIELDS.map((field) => {
        const error = shownError(field);
        const hintId = `${id}-${field}-hint`;
        const errorId = `${id}-${field}-error`;
        const common = {
          id: `${id}-${field}`,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${errorId} ${hintId}` : hintId,
          autoComplete: c.autoComplete[field],
          ...register(field),
        };
        return (
          <div className={error ? 'field field--invalid' : 'field'} key={field}>
            <label htmlFor={`${id}-${field}`}>{c.labels[field]}</label>
            {field === 'message' ? (
              <textarea rows={7} {...common} />
            ) : (
              <input
                type={field === 'emailAddress' ? 'email' : 'text'}
                inputMode={field === 'emailAddress' ? 'email' : undefined}
                {...common}
              />
            )}
            <p className="field__hint" id={hintId}>
              {field === 'message'
                ? `${c.hints.message} ${c.characters(messageLength, CONTACT_LIMITS.body)}`
                : c.hints[field]}
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
        <button
          type="submit"
          className="button button--primary"
          disabled={messageSent || isSubmitting}
        >
          {isSubmitting ? c.sending : c.send}
        </button>
        {messageSent && (
          <button type="button" className="button button--secondary" onClick={startAnother}>
            {c.another}
          </button>
        )}
      </div>
    </form>
  );
}
