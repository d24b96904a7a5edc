type FormModule = typeof import('./ContactForm');

/** A promise React's `use` can read at once when it has settled (React's own thenable fields). */
type Tracked<T> = Promise<T> & { status: 'pending' | 'fulfilled' | 'rejected'; value?: T };

let open!: () => void;
const gate = new Promise<void>((resolve) => (open = resolve));
let current: Tracked<FormModule> | undefined;

function track(load: () => Promise<FormModule>): Tracked<FormModule> {
  const promise = load() as Tracked<FormModule>;
  promise.status = 'pending';
  promise.then(
    (value) => Object.assign(promise, { status: 'fulfilled', value }),
    () => Object.assign(promise, { status: 'rejected' }),
  );
  return promise;
}

/**
 * The contact form's code (its validation and form libraries, about a quarter of the page's
 * JavaScript). The page the visitor enters by shows the form as rendered on the server and fetches
 * this once the page has loaded and gone idle, or at once when the visitor reaches for the form, so
 * the first load carries only what paints the page. A failed fetch is tried again on the next read.
 */
export function formCode(): Promise<FormModule> {
  if (!current || current.status === 'rejected')
    current = track(() =>
      gate.then(() => import(/* webpackChunkName: "contact-form" */ './ContactForm')),
    );
  return current;
}

/** Starts fetching the form's code (idempotent); resolves when it is at hand. */
export function loadFormCode(): Promise<FormModule> {
  open();
  return formCode();
}
