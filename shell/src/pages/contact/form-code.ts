type FormModule = typeof import('./ContactForm');

/** A promise React's `use` can read at once when it has settled (React's own thenable fields). */
type Tracked<T> = Promise<T> & { status: 'pending' | 'fulfilled'; value?: T };

let settle!: (module: FormModule) => void;
const eventual = new Promise<FormModule>((resolve) => (settle = resolve)) as Tracked<FormModule>;
eventual.status = 'pending';

let attempt: Promise<FormModule> | undefined;
let failed = false;

/**
 * The contact form's code (its validation and form libraries, about a quarter of the page's
 * JavaScript), once it is here. The page the visitor enters by shows the form as rendered on the
 * server and fetches this once the page has loaded and gone idle, or at once when the visitor
 * reaches for the form, so the first load carries only what paints the page. Until a fetch
 * succeeds this stays pending: the server's form stays on the page, and works without it.
 */
export function formCode(): Promise<FormModule> {
  return eventual;
}

/** Starts fetching the form's code (idempotent; a failed fetch is tried again); rejects when it fails. */
export function loadFormCode(): Promise<FormModule> {
  if (!attempt || failed) {
    failed = false;
    attempt = import(/* webpackChunkName: "contact-form" */ './ContactForm');
    attempt.then(
      (module) => {
        // Marked before anyone awaiting this attempt resumes, so a render that follows reads it.
        Object.assign(eventual, { status: 'fulfilled', value: module });
        settle(module);
      },
      () => {
        failed = true;
      },
    );
  }
  return attempt;
}
