import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { AnimatedCounter } from '../components/AnimatedCounter';

/**
 * IntersectionObserver as a test drives it: each observer the counter makes is kept with its
 * options, and the test says where the counter is. The counter watches two areas: the screen
 * (no root margin) and the screen with a band under it (a bottom root margin), where a counter is
 * about to be seen.
 */
interface FakeObserver {
  margin: string;
  callback: (entries: Partial<IntersectionObserverEntry>[]) => void;
  disconnected: boolean;
}

let observers: FakeObserver[] = [];
let frames: FrameRequestCallback[] = [];
let now = 0;
const VIEWPORT = 800;

function setReducedMotion(reduce: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: reduce && query.includes('prefers-reduced-motion: reduce'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  })) as unknown as typeof window.matchMedia;
}

beforeEach(() => {
  observers = [];
  frames = [];
  now = 0;
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: VIEWPORT });
  (globalThis as unknown as { IntersectionObserver: unknown }).IntersectionObserver = class {
    private readonly record: FakeObserver;
    constructor(
      callback: FakeObserver['callback'],
      options: { rootMargin?: string } | undefined = {},
    ) {
      this.record = { margin: options.rootMargin ?? '0px', callback, disconnected: false };
      observers.push(this.record);
    }
    observe() {}
    unobserve() {}
    disconnect() {
      this.record.disconnected = true;
    }
  };
  jest.spyOn(performance, 'now').mockImplementation(() => now);
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
    frames.push(cb);
    return frames.length;
  });
  jest.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {
    frames = [];
  });
});

afterEach(() => jest.restoreAllMocks());

/** Advances the animation clock and runs the frames that were queued. */
function advance(ms: number) {
  now += ms;
  const pending = frames;
  frames = [];
  act(() => pending.forEach((f) => f(now)));
}

/**
 * Puts the counter's top edge `top` pixels from the top of the screen (a 40 px tall counter) and
 * tells every live observer what it would see: the screen, or the screen and the band under it.
 */
function scrollTo(top: number) {
  const box = { top, bottom: top + 40 } as DOMRectReadOnly;
  act(() => {
    for (const o of observers.filter((x) => !x.disconnected)) {
      const band = o.margin === '0px' ? 0 : Number(/(\d+)px\s*0px\s*$/.exec(o.margin)?.[1] ?? 0);
      const isIntersecting = box.bottom > 0 && box.top < VIEWPORT + band;
      o.callback([{ isIntersecting, boundingClientRect: box }]);
    }
  });
}

const shown = () => screen.getByTestId('counter-value').textContent;

describe('AnimatedCounter', () => {
  it('counts up from zero for a visitor who scrolls down to it, over the given speed', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={4} pad={2} speed={2500} label="Releases" />);
    scrollTo(2000);
    expect(shown()).toBe('04');
    // Just under the screen: zero, where nobody sees the change.
    scrollTo(VIEWPORT + 20);
    expect(shown()).toBe('00');
    scrollTo(VIEWPORT - 200);
    advance(0);
    advance(500);
    const midway = Number(shown());
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(4);
    advance(1999);
    expect(frames).toHaveLength(1); // still counting until the full speed has elapsed
    advance(1);
    expect(shown()).toBe('04');
    expect(frames).toHaveLength(0);
  });

  it('shows the final value to a visitor who never scrolls to it', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={18} suffix="+" label="Years" />);
    expect(shown()).toBe('18+');
    scrollTo(3000);
    advance(5000);
    expect(shown()).toBe('18+');
  });

  it('shows the final value at once to a visitor who scrolls past while it counts', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={18} suffix="+" speed={2500} label="Years" />);
    scrollTo(VIEWPORT + 20);
    scrollTo(VIEWPORT - 200);
    advance(0);
    advance(100);
    scrollTo(-300);
    expect(shown()).toBe('18+');
    expect(frames).toHaveLength(0);
    // Coming back to it later: it stays at the final value.
    scrollTo(VIEWPORT + 20);
    scrollTo(200);
    advance(100);
    expect(shown()).toBe('18+');
  });

  it('goes back to the final value when the visitor turns back before reaching it', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={4} pad={2} label="Releases" />);
    scrollTo(VIEWPORT + 20);
    expect(shown()).toBe('00');
    scrollTo(2000);
    expect(shown()).toBe('04');
  });

  it('does not count when it is already on screen as the page appears, or first seen on screen', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={4} pad={2} label="Releases" />);
    scrollTo(300);
    advance(16);
    expect(shown()).toBe('04');
    expect(frames).toHaveLength(0);
  });

  it('shows the final value at once when the visitor prefers reduced motion', () => {
    setReducedMotion(true);
    render(<AnimatedCounter target={2008} speed={2500} label="Founded" />);
    scrollTo(VIEWPORT + 20);
    scrollTo(200);
    expect(shown()).toBe('2008');
    expect(frames).toHaveLength(0);
  });

  it('is written with its final value into the server’s HTML, for a visitor without script', () => {
    const html = renderToString(<AnimatedCounter target={3} pad={2} suffix="+" label="Teams" />);
    expect(html).toContain('>03+</span>');
    expect(html).not.toContain('>00+</span>');
  });

  it('gives screen readers the final value and the label, not the moving digits', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={3} pad={2} label="Frameworks" suffix="+" />);
    expect(screen.getByTestId('counter-value')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByText('03+', { selector: '.visually-hidden' })).toBeInTheDocument();
    expect(screen.getByText('Frameworks')).toBeInTheDocument();
  });

  it('keeps the final value beside the moving digits, which is what a printed page shows', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={18} label="Years" suffix="+" />);
    // Armed under the screen, the digits read zero; the print styles swap in the final value.
    scrollTo(VIEWPORT + 20);
    expect(shown()).toBe('0+');
    expect(screen.getByText('18+', { selector: '.counter__final' })).toBeInTheDocument();
  });
});
