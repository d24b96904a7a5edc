import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { AnimatedCounter } from '../components/AnimatedCounter';

let frames: FrameRequestCallback[] = [];
let now = 0;
const VIEWPORT = 800;
/** Where the counter's top edge is, in pixels from the top of the screen (a 40 px tall counter). */
let top = 2000;

function setReducedMotion(reduce: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: reduce && query.includes('prefers-reduced-motion: reduce'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  })) as unknown as typeof window.matchMedia;
}

beforeEach(() => {
  frames = [];
  now = 0;
  top = 2000;
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: VIEWPORT });
  jest
    .spyOn(Element.prototype, 'getBoundingClientRect')
    .mockImplementation(() => ({ top, bottom: top + 40 }) as DOMRect);
  jest.spyOn(performance, 'now').mockImplementation(() => now);
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
    frames.push(cb);
    return frames.length;
  });
  jest.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {
    frames = [];
  });
});

afterEach(() => {
  // Whatever a test left under way ends, as a scroll does.
  act(() => void window.dispatchEvent(new Event('scrollend')));
  jest.restoreAllMocks();
});

/** Advances the animation clock and runs the frames that were queued. */
function advance(ms: number) {
  now += ms;
  const pending = frames;
  frames = [];
  act(() => pending.forEach((f) => f(now)));
}

/** The page scrolls so that the counter's top edge is `to` pixels from the top of the screen. */
function scrollTo(to: number) {
  top = to;
  act(() => void window.dispatchEvent(new Event('scroll')));
}

/** The scroll comes to rest. */
const scrollEnds = () => act(() => void window.dispatchEvent(new Event('scrollend')));

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
    // It comes in at the bottom of the screen: the visitor watches it count.
    scrollTo(VIEWPORT - 100);
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
    scrollTo(VIEWPORT - 100);
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
    top = 300;
    render(<AnimatedCounter target={4} pad={2} label="Releases" />);
    scrollTo(100);
    advance(16);
    expect(shown()).toBe('04');
    expect(frames).toHaveLength(0);
  });

  it('shows its figure, never 0, when a scroll too fast to follow brings it into view', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={4} pad={2} label="Releases" />);
    scrollTo(VIEWPORT + 20);
    expect(shown()).toBe('00');
    // The next frame of a fling has it in the middle of the screen.
    scrollTo(300);
    expect(shown()).toBe('04');
    expect(frames).toHaveLength(0);
  });

  it('shows its figure when the End key (or an anchor) carries the page past it', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={4} pad={2} label="Releases" />);
    scrollTo(VIEWPORT + 20);
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: 'End' })));
    expect(shown()).toBe('04');
    scrollTo(VIEWPORT - 100);
    expect(shown()).toBe('04');
    expect(frames).toHaveLength(0);
  });

  it('reads 0 only while a scroll is under way: at rest it shows its figure', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={4} pad={2} label="Releases" />);
    scrollTo(VIEWPORT + 20);
    expect(shown()).toBe('00');
    scrollEnds();
    expect(shown()).toBe('04');
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
    // And a page about to be printed shows its figures.
    act(() => void window.dispatchEvent(new Event('beforeprint')));
    expect(shown()).toBe('18+');
  });
});
