import { Suspense, use, useCallback, useEffect, useRef, type RefObject } from 'react';
import { HeroBanner, company, formatAddress, mapLink, phoneHref } from '@site/ui';
import { ContactArt } from '../art/contact';
import { SocialLinks } from '../components/SocialLinks';
import { contactContent as c } from '../content/contact';
import { shellRoutes } from '../content/shell-routes';
import { afterLoadAndIdle } from '../hooks/use-link-preload';
import { siteAdopted } from '../page-ref';
import { formCode, loadFormCode } from './contact/form-code';
import { formStarted } from './contact/form-token';
import { enteredInPlace } from './contact/contact-token';
import { ContactMap } from './contact/ContactMap';

/**
 * On the server, and for a visit from another page of the site, the form's code comes with the
 * page. The page a visitor enters by is adopted without it (see `form-code.ts`).
 */
export async function withFormCode(): Promise<void> {
  if (typeof document === 'undefined' || siteAdopted()) await loadFormCode();
}

function Form({ onReady }: { onReady: () => void }) {
  const { ContactForm } = use(formCode());
  useEffect(onReady, [onReady]);
  return <ContactForm />;
}

/** How long a message sent before the form's code is here waits for it before the browser posts it. */
const HOLD_LIMIT_MS = 8000;

/**
 * Fetches the form's code after load and idle, or as soon as the visitor focuses or presses inside
 * the form. A message sent before the code is here (Enter in a field, or the button) is held and
 * sent once it is, instead of the browser submitting the bare form. When the code cannot be
 * fetched (or takes too long), the browser posts the form after all: the site server answers it
 * as it answers a browser without JavaScript.
 */
function useFormWhenWanted(container: RefObject<HTMLElement | null>): () => void {
  const ready = useRef(false);
  const held = useRef(false);
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const start = () => void loadFormCode().catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hold = (event: Event) => {
      if (ready.current) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      if (held.current) return;
      held.current = true;
      const form = event.target instanceof HTMLFormElement ? event.target : null;
      const postIt = () => {
        clearTimeout(timer);
        if (ready.current || !held.current) return;
        held.current = false;
        // A plain post, which fires no submit event: not held again.
        form?.submit();
      };
      timer = setTimeout(postIt, HOLD_LIMIT_MS);
      loadFormCode().catch(postIt);
    };
    // The form's first use starts the time trap's clock, whether or not its code is here yet.
    // Heard on the document as the event goes down: until the form is adopted, React stops the
    // events aimed at it at the root (to replay them later), before they would reach `el`.
    const used = (event: Event) => {
      const target = event.target;
      if (target instanceof Element && el.contains(target) && target.closest('form')) formStarted();
    };
    const doc = el.ownerDocument;
    void afterLoadAndIdle().then(start);
    doc.addEventListener('focusin', used, true);
    doc.addEventListener('input', used, true);
    el.addEventListener('focusin', start);
    el.addEventListener('pointerdown', start);
    el.addEventListener('submit', hold, true);
    return () => {
      clearTimeout(timer);
      doc.removeEventListener('focusin', used, true);
      doc.removeEventListener('input', used, true);
      el.removeEventListener('focusin', start);
      el.removeEventListener('pointerdown', start);
      el.removeEventListener('submit', hold, true);
    };
  }, [container]);
  return useCallback(() => {
    ready.current = true;
    if (!held.current) return;
    held.current = false;
    container.current?.querySelector('form')?.requestSubmit();
  }, [container]);
}

export default function ContactPage() {
  const layout = useRef<HTMLDivElement>(null);
  const onFormReady = useFormWhenWanted(layout);
  // A message is taken only from the contact page's own document (contact-token.ts): a document
  // that came here in place loads the contact page afresh, before anything is typed.
  useEffect(() => {
    if (enteredInPlace()) window.location.replace(window.location.href);
  }, []);
  return (
    <>
      <HeroBanner
        eyebrow={c.hero.eyebrow}
        title={shellRoutes.contact.title}
        lead={c.hero.lead}
        art={ContactArt}
      />
      <section className="section">
        <div className="container contact-layout" ref={layout}>
          <Suspense fallback={null}>
            <Form onReady={onFormReady} />
          </Suspense>
          <aside className="contact-details" aria-labelledby="contact-details">
            <h2 id="contact-details">{c.details.heading}</h2>
            <dl className="facts">
              <div>
                <dt>{c.details.address}</dt>
                <dd>
                  <address>{formatAddress()}</address>
                  <a href={mapLink()} rel="noopener noreferrer">
                    {c.details.mapLink}
                  </a>
                </dd>
              </div>
              <div>
                <dt>{c.details.hours}</dt>
                <dd>{company.hours.label}</dd>
              </div>
              <div>
                <dt>{c.details.timeZone}</dt>
                <dd>{company.timeZone.label}</dd>
              </div>
              <div>
                <dt>{c.details.phone}</dt>
                <dd>
                  <a href={phoneHref()}>{company.phone.display}</a>
                </dd>
              </div>
              <div>
                <dt>{c.details.email}</dt>
                <dd>
                  <a href={`mailto:${company.email}`}>{company.email}</a>
                </dd>
              </div>
              <div>
                <dt>{c.details.social}</dt>
                <dd>
                  <SocialLinks className="social-list" />
                </dd>
              </div>
            </dl>
          </aside>
        </div>
      </section>
      <section className="section section--muted" aria-labelledby="contact-map">
        <div className="container">
          <h2 id="contact-map">{c.map.heading}</h2>
          <ContactMap />
        </div>
      </section>
    </>
  );
}
