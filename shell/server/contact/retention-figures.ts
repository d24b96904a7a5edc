/**
 * The retention figures the privacy notice states, as the mail-service runs with them (its GET
 * /api/privacy), so the notice the site server renders (what a visitor without JavaScript and a
 * crawler read) cannot drift from what the outbox does. Asked at start and again once a minute at
 * most, in the background: a mail-service that is down or hangs never holds up a page; until it
 * has answered once, the notice states the defaults the service's settings take.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  PRIVACY_FIGURES_PATH,
  RETENTION_DEFAULTS,
  parseRetentionFigures,
  type RetentionFigures,
} from '@site/contracts/contact/retention';

export interface RetentionSourceOptions {
  /** The mail-service (or the balancer in front of its replicas). */
  mailService: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** How long figures are taken as current before the service is asked again. */
  maxAgeMs?: number;
  /** How long one question may take. */
  timeoutMs?: number;
}

export class RetentionFiguresSource {
  private figures: RetentionFigures = RETENTION_DEFAULTS;
  private askedAt = -Infinity;
  private asking: Promise<void> | undefined;
  private readonly url: string;
  private readonly maxAgeMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: RetentionSourceOptions) {
    this.url = new URL(PRIVACY_FIGURES_PATH, options.mailService).href;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  /** The figures as last told (the defaults until then); asks again when they are old. */
  current(): RetentionFigures {
    if (Date.now() - this.askedAt > this.maxAgeMs) void this.ask();
    return this.figures;
  }

  /** Settles once the service has been asked once (answered, refused or timed out). */
  async asked(): Promise<void> {
    if (this.askedAt === -Infinity) await this.ask();
  }

  private ask(): Promise<void> {
    this.asking ??= this.question().finally(() => {
      this.askedAt = Date.now();
      this.asking = undefined;
    });
    return this.asking;
  }

  private async question(): Promise<void> {
    try {
      const res = await fetch(this.url, { signal: AbortSignal.timeout(this.timeoutMs) });
      const figures = res.ok ? parseRetentionFigures(await res.json()) : undefined;
      if (!figures) throw new Error(`answered ${res.status} without figures`);
      this.figures = figures;
    } catch (error) {
      this.options.log.warn(
        `privacy notice: the mail-service's retention figures could not be had from ${this.url} (${error instanceof Error ? error.message : String(error)}); the notice states ${this.figures === RETENTION_DEFAULTS ? 'the defaults' : 'the figures it last had'}`,
      );
    }
  }
}
