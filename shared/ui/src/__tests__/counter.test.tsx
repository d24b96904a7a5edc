import { act, render, screen } from '@testing-library/react';
import { AnimatedCounter } from '../components/AnimatedCounter';

type Callback = (entries: { isIntersecting: boolean }[]) => void;

let observers: Callback[] = [];
let frames: FrameRequestCallback[] = [];
let now = 0;

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
  (globalThis as unknown as { IntersectionObserver: unknown }).IntersectionObserver = class {
    constructor(cb: Callback) {
      observers.push(cb);
    }
    observe() {}
    disconnect() {}
  };
  jest.spyOn(performance, 'now').mockImplementation(() => now);
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
    frames.push(cb);
    return frames.length;
  });
  jest.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {});
});

afterEach(() => jest.restoreAllMocks());

/** Advances the animation clock and runs the frames that were queued. */
function advance(ms: number) {
  now += ms;
  const pending = frames;
  frames = [];
  act(() => pending.forEach((f) => f(now)));
}

const shown = () => screen.getByTestId('counter-value').textContent;

describe('AnimatedCounter', () => {
  it('waits at zero until scrolled into view, then counts up to the target over the given speed', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={4} pad={2} speed={2500} label="Releases" />);
    expect(shown()).toBe('00');
    advance(1000);
    expect(shown()).toBe('00');
    act(() => observers.forEach((cb) => cb([{ isIntersecting: true }])));
    advance(0);
    advance(500);
    const midway = Number(shown());
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(4);
    advance(1999);
    expect(frames).toHaveLength(1); // still animating until the full speed has elapsed
    advance(1);
    expect(shown()).toBe('04');
    expect(frames).toHaveLength(0);
  });

  it('shows the final value at once when the visitor prefers reduced motion', () => {
    setReducedMotion(true);
    render(<AnimatedCounter target={2008} speed={2500} label="Founded" />);
    expect(shown()).toBe('2008');
    expect(frames).toHaveLength(0);
  });

  it('gives screen readers the final value and the label, not the moving digits', () => {
    setReducedMotion(false);
    render(<AnimatedCounter target={3} pad={2} label="Frameworks" suffix="+" />);
    expect(screen.getByTestId('counter-value')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByText('03+', { selector: '.visually-hidden' })).toBeInTheDocument();
    expect(screen.getByText('Frameworks')).toBeInTheDocument();
  });
});
