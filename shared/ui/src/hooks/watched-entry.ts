/**
 * Whether a visitor watched an element come into view, for the entrances (a section fading up, a
 * counter counting) that only make sense to someone who sees them start. Content is hidden only
 * while a scroll is carrying it in from just under the screen; at rest nothing is ever hidden.
 *
 * - `arm`: the element is in the band just under the screen while the page scrolls: hide it, ready
 *   to play its entrance (nobody sees this).
 * - `enter`: it came into view at the bottom of the screen, by a scroll slow enough to watch.
 * - `show`: it is in view, or was passed over, without being watched coming in (a jump to an anchor,
 *   the End key, find-in-page, a fling, a capture tool): shown as it is, at once.
 * - `rest`: the scroll stopped with it still under the screen: shown as it is again.
 *
 * The checks run in the scroll event, which comes before the frame is painted, so a jump never
 * paints a hidden element in view. Nothing is tracked under reduced motion: it is all shown.
 */
export interface EntryHandlers {
  arm(): void;
  enter(): void;
  show(): void;
  rest(): void;
}

/** How far under the screen an element is made ready, in pixels. */
const BAND_PX = 160;
/** An element first seen in view with its top in this bottom share of the screen was watched. */
const ENTRY_SHARE = 0.2;
/** Keys that move the page by more than a visitor can follow: what they bring into view just shows. */
const JUMP_KEYS = new Set(['End', 'Home', 'PageDown', 'PageUp', ' ']);

type Tracked = { handlers: EntryHandlers; armed: boolean };

const tracked = new Map<Element, Tracked>();
/** A jump is under way (a key or an anchor): nothing is armed until the scroll stops. */
let jumping = false;
let listening = false;

/** Where each element is now; `moving`: a scroll is carrying the page, so the band may be armed. */
function check(moving: boolean): void {
  const height = window.innerHeight;
  for (const [el, entry] of tracked) {
    const top = el.getBoundingClientRect().top;
    if (top < height) {
      tracked.delete(el);
      if (entry.armed && !jumping && top > height * (1 - ENTRY_SHARE)) entry.handlers.enter();
      else entry.handlers.show();
    } else if (top < height + BAND_PX && moving && !jumping) {
      if (!entry.armed) {
        entry.armed = true;
        entry.handlers.arm();
      }
    } else if (entry.armed) {
      entry.armed = false;
      entry.handlers.rest();
    }
  }
}

function settle(): void {
  jumping = false;
  for (const entry of tracked.values()) {
    if (!entry.armed) continue;
    entry.armed = false;
    entry.handlers.rest();
  }
  check(false);
}

function onKey(event: KeyboardEvent): void {
  const target = event.target;
  const typing =
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName));
  if (!typing && JUMP_KEYS.has(event.key)) onJump();
}

/** A wheel or a finger moves the page at a pace the visitor follows. */
function onWatchedScroll(): void {
  jumping = false;
}

function onJump(): void {
  jumping = true;
  for (const entry of tracked.values()) {
    if (!entry.armed) continue;
    entry.armed = false;
    entry.handlers.rest();
  }
}

function listen(): void {
  if (listening) return;
  listening = true;
  const options = { passive: true, capture: true } as const;
  window.addEventListener('scroll', () => check(true), options);
  window.addEventListener('resize', () => check(false), options);
  window.addEventListener('scrollend', settle, options);
  window.addEventListener('keydown', onKey, options);
  window.addEventListener('hashchange', onJump, options);
  window.addEventListener('beforeprint', settle, options);
  window.addEventListener('wheel', onWatchedScroll, options);
  window.addEventListener('touchstart', onWatchedScroll, options);
}

/**
 * Watches `el` until it has come into view once. Returns whether it was already in view or above
 * (nothing will be called then), and a function that stops watching.
 */
export function watchEntry(el: Element, handlers: EntryHandlers): { seen: boolean; stop(): void } {
  if (el.getBoundingClientRect().top < window.innerHeight) return { seen: true, stop: () => {} };
  tracked.set(el, { handlers, armed: false });
  listen();
  return {
    seen: false,
    stop: () => {
      tracked.delete(el);
    },
  };
}
