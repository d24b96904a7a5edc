import { useEffect } from 'react';
import { whenIdle } from '../idle';

/** What the shell's style sheet leaves to be laid out later (shell.css, "laid out in steps"). */
const SELECTOR = '.section, .footer';

/** Set on `<html>` once every band is laid out: from then on the style sheet defers nothing. */
const LAID_OUT_ATTRIBUTE = 'data-laid-out';

/** A step waits at most this long for a quiet moment (50 ms where there is no idle callback). */
const STEP_WAIT = { timeoutMs: 1000, fallbackMs: 50 };

/**
 * The page's bands below the first screen are laid out one at a time, each in a quiet moment of
 * its own, once the client has taken the page over. Until then the style sheet lets the browser
 * skip the layout of bands off the screen (`content-visibility: auto`), so the first layout of a
 * long page is its first screen's and no single task lays out the whole page: on a slow phone that
 * one task was the longest of the page's load. A band the visitor scrolls to, jumps to or finds
 * meanwhile is laid out by the browser at once. Without JavaScript the bands are laid out as they
 * near the screen; printing always lays out everything.
 */
export function useStepwiseLayout(): void {
  useEffect(() => {
    const root = document.documentElement;
    if (root.hasAttribute(LAID_OUT_ATTRIBUTE)) return;
    const bands = [...document.querySelectorAll<HTMLElement>(SELECTOR)];
    let stopped = false;
    const step = () => {
      if (stopped) return;
      const band = bands.shift();
      if (!band) {
        root.setAttribute(LAID_OUT_ATTRIBUTE, 'true');
        return;
      }
      band.style.contentVisibility = 'visible';
      // Its layout now, in this step, rather than all of them in the next frame.
      void band.offsetHeight;
      whenIdle(step, STEP_WAIT.timeoutMs, STEP_WAIT.fallbackMs);
    };
    whenIdle(step, STEP_WAIT.timeoutMs, STEP_WAIT.fallbackMs);
    return () => {
      stopped = true;
    };
  }, []);
}
