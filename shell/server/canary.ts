/**
 * Canary releases: a version of a group live for a share of visits beside the stable one.
 *
 * A visitor is placed in a cohort once (a number 0-99 in a cookie, given with the first page while a
 * canary runs) and sees, for the whole visit, every canary whose share is above its number: the
 * server's HTML and the manifest the browser navigates with agree. Requests from crawlers (by their
 * user agent) and requests that carry no cookie and are not given one get the stable version, so
 * the indexed HTML and the sitemap stay stable. Each replica watches its canaries' errors (browser
 * reports to /_beacon and its own render failures) and rolls a canary back by itself when they pass
 * the threshold within the window.
 */
import { randomInt } from 'node:crypto';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import { isbot } from 'isbot';
import { live, manifestText, type LiveManifest } from './control-plane';
import type { Logger } from './logger';

export const COHORT_COOKIE = 'site_cohort';
/** A visit: the cohort is kept for a day. */
const COHORT_SECONDS = 24 * 60 * 60;

export const CANARY_DEFAULTS = { errorThreshold: 5, windowSeconds: 60 };

/** The visitor's cohort from its cookie, or null. */
export function cohortOf(cookieHeader: string | undefined): number | null {
  if (!cookieHeader) return null;
  let value: string | undefined;
  try {
    value = parseCookie(cookieHeader)[COHORT_COOKIE];
  } catch {
    return null;
  }
  if (value === undefined || !/^\d{1,2}$/.test(value)) return null;
  return Number(value);
}

/**
 * The cohort of a request while canaries run: its cookie's, or a new one for a visitor (with the
 * cookie to set), or null for a crawler, which always gets the stable version.
 */
export function placeVisitor(
  cookieHeader: string | undefined,
  userAgent: string | undefined,
  secure: boolean,
): { cohort: number | null; setCookie?: string } {
  const known = cohortOf(cookieHeader);
  if (known !== null) return { cohort: known };
  if (!userAgent || isbot(userAgent)) return { cohort: null };
  const cohort = randomInt(100);
  return {
    cohort,
    setCookie: serializeCookie(COHORT_COOKIE, String(cohort), {
      httpOnly: true,
      secure,
      sameSite: 'lax',
      path: '/',
      maxAge: COHORT_SECONDS,
    }),
  };
}

/**
 * The manifest a cohort sees: the live one with each canary whose share is above the cohort's
 * number in its group's place (and no canary list: the browser has no use for it). The same text
 * on every replica, so every replica caches its pages under the same version. A few are kept.
 */
export class CanaryViews {
  private readonly made = new Map<string, LiveManifest>();

  view(base: LiveManifest, cohort: number | null): LiveManifest {
    if (base.canaries.length === 0 || cohort === null) return base;
    const shown = base.canaries.filter((c) => cohort < c.percent);
    if (shown.length === 0) return base;
    const key = `${base.version}|${shown.map((c) => c.remote.name).join(',')}`;
    let made = this.made.get(key);
    if (!made) {
      const json: Record<string, unknown> = { ...base.json };
      const raws = (json.canaries ?? []) as Record<string, unknown>[];
      delete json.canaries;
      json.remotes = (json.remotes as Record<string, unknown>[]).map((r) => {
        if (!shown.some((c) => c.remote.name === r.name)) return r;
        const { percent: _percent, since: _since, ...entry } = raws.find((c) => c.name === r.name)!;
        return entry;
      });
      made = live(manifestText(json));
      if (this.made.size >= 16) this.made.delete(this.made.keys().next().value!);
      this.made.set(key, made);
    }
    return made;
  }
}

export interface CanaryWatchOptions {
  current(): Promise<LiveManifest>;
  /** Errors of a group's version over the window: browser reports and render failures. */
  errors(group: string, version: string, windowMs: number): number;
  rollBack(group: string, version: string, reason: string): Promise<unknown>;
  errorThreshold: number;
  windowSeconds: number;
  log: Logger;
  intervalMs?: number;
}

/** Rolls back a canary whose errors pass the threshold within the window; checks every second. */
export class CanaryWatch {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(private readonly options: CanaryWatchOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.check(), this.options.intervalMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async check(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const { errorThreshold, windowSeconds } = this.options;
      let current: LiveManifest;
      try {
        current = await this.options.current();
      } catch {
        return; // The control plane is away: nothing can be rolled back now anyway.
      }
      for (const canary of current.canaries) {
        const { name, version } = canary.remote;
        const errors = this.options.errors(name, version, windowSeconds * 1000);
        if (errors < errorThreshold) continue;
        const reason = `automatic rollback: ${errors} errors in ${windowSeconds} s`;
        try {
          await this.options.rollBack(name, version, reason);
          this.options.log.warn(`site: canary ${name} ${version} rolled back (${reason})`);
        } catch (error) {
          // Another replica was first, or the control plane is away: the next check sees.
          this.options.log.warn(
            `site: canary ${name} ${version} not rolled back yet: ${String(error)}`,
          );
        }
      }
    } finally {
      this.busy = false;
    }
  }
}
