/**
 * Composes a page from parts, each rendered by the code that owns it and cached by what it depends
 * on:
 *
 * - the frame (skip link, navbar, footer) by the shell's own processes, cached by shell build, the
 *   navigation the manifest gives (routes, labels, groups) and path;
 * - the page by its group's processes (that version's code alone), cached by shell build, that
 *   group version and path; or, for the shell's own pages and every notice, by the shell's;
 * - the head from the route table, here, with the shell's own code.
 *
 * The page's markup goes into the frame's slot; the result is byte for byte what rendering the
 * whole page at once gives (the layout draws the page at the same place in the tree either way).
 * So a deploy of one group renders only that group's pages again; the rest of the site is put
 * together from parts already made. Whatever a group's process answers, it is that group's page
 * alone: the status, the title and the owner come from the manifest, never from the process.
 */
import {
  groupAt,
  leadingRemote,
  pinsByUrl,
  type DeploymentManifest,
  type RemoteDeployment,
} from '@site/contracts';
import { LRUCache } from 'lru-cache';
import type { RetentionFigures } from '@site/contracts/contact/retention';
import type { PageMeta } from '../../src/content/shell-routes';
import type { ContactFormState } from '../../src/pages/contact/form-state';
import { composePage, type ShellTemplate } from './compose';
import { figuresKey, navigationKey, onlyGroup, toPart, type Part } from './parts';
import { scriptJson, type LiveManifest } from '../control-plane';
import { ByPage } from './by-page';
import type { LastGoodPages } from './last-good';
import type { Logger } from '../http/logger';
import type { RenderFailure, SiteMetrics } from '../metrics/metrics';
import { RenderTimeoutError } from '../render/process';
import { remoteIdentity, type RenderPools } from '../render/pools';
import type { ShellServerBuild } from '../render/protocol';

const pinsOf = (group: RemoteDeployment | undefined | null) => (group ? pinsByUrl(group) : {});

/** What a page is, before its bytes: its status, its markup, its owner and why it failed. */
export interface Composition {
  status: number;
  html: string;
  /** The group that owns the page (null: the shell). */
  owner: RemoteDeployment | null;
  failure: string | null;
  /**
   * When the group's render failed and its last good markup stands in: when that was last known
   * good (ms since the epoch). Null for a page rendered now.
   */
  lastGood: number | null;
}

export interface ComposerOptions {
  pools: () => RenderPools;
  /** The shell's Node build in this process (trusted): the head, and the last-resort notice. */
  shell: ShellServerBuild;
  template: () => ShellTemplate;
  siteUrl: string;
  metrics: SiteMetrics;
  /** The scripts a remote's page loads, to preload (best effort). */
  preloads(remote: RemoteDeployment, path: string): Promise<string[]>;
  /** The page's share card URL. */
  shareImage(view: LiveManifest, path: string, known: boolean): string | null;
  log: Logger;
  /** Bytes of rendered parts kept (frames and pages). */
  maxPartBytes: number;
  /** Each group page's last good markup, kept where a server that starts later reads it. */
  lastGood?: LastGoodPages;
  /** The figures a shell page states (the privacy notice: the mail-service's retention figures). */
  figures?: (pagePath: string) => RetentionFigures | undefined;
}

export const NOT_FOUND_PATH = '/404';

const reasonOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

export class PageComposer {
  private readonly parts: LRUCache<string, Part>;
  private readonly making = new Map<string, Promise<Part>>();
  private readonly navKeys = new WeakMap<DeploymentManifest, string>();
  private readonly carriedManifests = new WeakMap<DeploymentManifest, DeploymentManifest>();
  /**
   * Page keys by manifest and path, without the template and the figures (`pageKey`): the search
   * of every group's routes done once, not for every answer.
   */
  private readonly keys = new ByPage<string>((view, pagePath) => {
    const owner = view.manifest.remotes.find((r) => r.routes.some((x) => x.path === pagePath));
    return `${this.navigation(view.manifest)}|${owner ? remoteIdentity(owner) : 'shell'}|${pagePath}`;
  });

  constructor(private readonly options: ComposerOptions) {
    this.parts = new LRUCache<string, Part>({
      maxSize: options.maxPartBytes,
      // Strings are held as UTF-16 at worst: two bytes a character.
      sizeCalculation: (part) => Math.max(1, part.html.length * 2),
    });
  }

  /** Bytes of parts held, and how many. */
  get cached(): { entries: number; bytes: number } {
    return { entries: this.parts.size, bytes: this.parts.calculatedSize };
  }

  private navigation(manifest: DeploymentManifest): string {
    let key = this.navKeys.get(manifest);
    if (key === undefined) {
      key = navigationKey(this.carried(manifest));
      this.navKeys.set(manifest, key);
    }
    return key;
  }

  /**
   * The manifest as pages carry it (each group's overview and leading pages): what the frame and
   * the shell's pages are drawn from, on the server as in the browser, so a page costs the same to
   * draw and to send however many pages the site has.
   */
  private carried(manifest: DeploymentManifest): DeploymentManifest {
    let made = this.carriedManifests.get(manifest);
    if (!made) {
      made = { ...manifest, remotes: manifest.remotes.map(leadingRemote) };
      this.carriedManifests.set(manifest, made);
    }
    return made;
  }

  /**
   * The carried manifest with the page's own route in its group's, where the group's leading
   * pages leave it out (the page carries it beside the manifest too: `pageRoute`).
   */
  private carriedFor(manifest: DeploymentManifest, pagePath: string): DeploymentManifest {
    const carried = this.carried(manifest);
    const extra = this.pageRoute(manifest, pagePath);
    if (!extra) return carried;
    return {
      ...carried,
      remotes: carried.remotes.map((r) =>
        r.name === extra.owner.name ? { ...r, routes: [...r.routes, extra.route] } : r,
      ),
    };
  }

  /** A group's page the carried manifest does not name: its route, to carry beside it. */
  private pageRoute(manifest: DeploymentManifest, pagePath: string) {
    const owner = manifest.remotes.find((r) => r.routes.some((x) => x.path === pagePath));
    if (!owner) return undefined;
    const carried = this.carried(manifest).remotes.find((r) => r.name === owner.name);
    if (carried?.routes.some((x) => x.path === pagePath)) return undefined;
    return { owner, route: owner.routes.find((x) => x.path === pagePath)! };
  }

  /**
   * What the page at `pagePath` depends on besides the manifest it embeds: the shell's build, the
   * navigation, the version of the group that owns it (the shell's pages draw the navigation) and
   * its path. A deploy of another group, or a canary's or a preview's manifest that differs
   * elsewhere, leaves it the same.
   */
  pageKey(view: LiveManifest, pagePath: string): string {
    const inView = this.keys.get(view, pagePath);
    return `${this.options.template().id}|${inView}${figuresKey(this.options.figures?.(pagePath))}`;
  }

  /** A part from the cache, or made once however many requests ask for it together. */
  private cachedPart(key: string, make: () => Promise<Part>, keep = true): Promise<Part> {
    const hit = this.parts.get(key);
    if (hit) return Promise.resolve(hit);
    let pending = this.making.get(key);
    if (!pending) {
      pending = make().finally(() => this.making.delete(key));
      if (keep) {
        pending.then(
          (part) => {
            if (part.failure === null) this.parts.set(key, part);
          },
          () => undefined,
        );
      }
      this.making.set(key, pending);
    }
    return pending;
  }

  private frame(view: LiveManifest, pagePath: string): Promise<Part> {
    const key = `frame|${this.options.template().id}|${this.navigation(view.manifest)}|${pagePath}`;
    return this.cachedPart(key, () =>
      this.options
        .pools()
        .shell.render({
          part: 'frame',
          manifest: this.carriedFor(view.manifest, pagePath),
          path: pagePath,
        })
        .then(toPart),
    );
  }

  /** The "temporarily unavailable" notice in the page's place, from the shell's processes. */
  private async notice(
    view: LiveManifest,
    pagePath: string,
    reason: string,
    crashed = false,
  ): Promise<Part> {
    try {
      return toPart(
        await this.options.pools().shell.render({
          part: 'page',
          manifest: this.carriedFor(view.manifest, pagePath),
          path: pagePath,
          unavailable: reason,
          crashed,
        }),
      );
    } catch {
      // The shell's processes cannot answer either: the shell's code in this process draws it.
      const result = await this.options.shell.renderUnavailable(
        {
          manifest: view.manifest,
          path: pagePath,
          loadRemote: () => Promise.reject(new Error(reason)),
        },
        reason,
        'page',
        crashed ? 'crashed' : 'unavailable',
      );
      return { status: 503, html: result.html, meta: result.meta, failure: reason };
    }
  }

  /** A page of a group, from that group version's own processes. */
  private async groupPage(
    view: LiveManifest,
    owner: RemoteDeployment,
    pagePath: string,
  ): Promise<Part> {
    const route = owner.routes.find((r) => r.path === pagePath)!;
    const meta: PageMeta = { path: route.path, title: route.title, description: route.description };
    const key = `page|${this.options.template().id}|${remoteIdentity(owner)}|${pagePath}`;
    let failure: RenderFailure = 'error';
    let reason: string;
    let crashed = false;
    try {
      const part = await this.cachedPart(key, async () => {
        const reply = await this.options
          .pools()
          .group(owner)
          .render({
            part: 'page',
            manifest: onlyGroup(this.carriedFor(view.manifest, pagePath), owner),
            path: pagePath,
          });
        if (reply.failure === null) this.options.lastGood?.rendered(owner, pagePath, reply.html);
        // The process's word counts for nothing but its markup and whether it failed.
        return {
          status: 200,
          html: reply.html,
          meta,
          failure: reply.failure,
          crashed: reply.crashed,
        };
      });
      if (part.failure === null) return part;
      reason = part.failure;
      crashed = part.crashed === true;
    } catch (error) {
      if (error instanceof RenderTimeoutError) failure = 'timeout';
      reason = reasonOf(error);
    }
    this.options.metrics.renderFailed(owner, this.options.template().id, failure);
    const kept = await this.options.lastGood?.find(owner, pagePath);
    this.options.log.warn(
      `site: ${pagePath}: ${owner.name}@${owner.version} could not be rendered: ${reason}${kept ? `; its last good composition (good at ${new Date(kept.goodAt).toISOString()}) stands in` : ''}`,
    );
    // Never kept among the parts: the group's own rendering is tried again once the page is.
    if (kept) return { status: 200, html: kept.html, meta, failure: null, lastGood: kept.goodAt };
    return this.notice(view, pagePath, reason, crashed);
  }

  /** A page of the shell's own (or the 404 page, or a group whose entry could not be read). */
  private shellPage(
    view: LiveManifest,
    pagePath: string,
    contactForm?: ContactFormState,
  ): Promise<Part> {
    const retention = this.options.figures?.(pagePath);
    const make = async () =>
      toPart(
        await this.options.pools().shell.render({
          part: 'page',
          manifest: this.carried(view.manifest),
          path: pagePath,
          ...(contactForm ? { contactForm } : {}),
          ...(retention ? { retention } : {}),
        }),
      );
    if (contactForm) return make();
    const key = `page|${this.options.template().id}|shell|${this.navigation(view.manifest)}|${pagePath}${figuresKey(retention)}`;
    return this.cachedPart(key, make);
  }

  /**
   * The page at `urlPath` as `view` shows it (`known` false: the 404 page), composed from its
   * parts. `contactForm`: the contact page in a visitor's state, for one answer.
   */
  async compose(
    view: LiveManifest,
    urlPath: string,
    known: boolean,
    contactForm?: ContactFormState,
  ): Promise<Composition> {
    const started = performance.now();
    const pagePath = known ? urlPath : NOT_FOUND_PATH;
    const owner = known
      ? (view.manifest.remotes.find((r) => r.routes.some((route) => route.path === pagePath)) ??
        null)
      : null;
    const [frame, page] = await Promise.all([
      this.frame(view, pagePath).catch(async (error: unknown) => {
        // Without the shell's processes the frame is drawn here, with the shell's own code.
        this.options.log.error(
          `site: the frame of ${pagePath} could not be rendered: ${reasonOf(error)}`,
        );
        const result = await this.options.shell.renderPage(
          { manifest: view.manifest, path: pagePath, loadRemote: () => Promise.reject(error) },
          'frame',
        );
        return { status: 200, html: result.html, meta: result.meta, failure: null };
      }),
      owner
        ? this.groupPage(view, owner, pagePath)
        : this.shellPage(view, pagePath, contactForm).catch((error: unknown) =>
            this.notice(view, pagePath, reasonOf(error)),
          ),
    ]);
    if (!owner && page.failure) {
      this.options.metrics.renderFailed(null, this.options.template().id, 'error');
    }
    const template = this.options.template();
    const meta = contactForm ? { ...page.meta, noindex: true } : page.meta;
    const image = this.options.shareImage(view, urlPath, known);
    const head = this.options.shell.renderHead(meta, this.options.siteUrl, image ?? undefined);
    const ok = page.failure === null && page.lastGood === undefined;
    // A stand-in's group cannot be reached or rendered now: its file lists are not asked for.
    const scripts = owner && ok ? await this.options.preloads(owner, pagePath) : [];
    const slot = frame.html.indexOf(this.options.shell.PAGE_SLOT);
    const root =
      slot === -1
        ? frame.html
        : frame.html.slice(0, slot) +
          page.html +
          frame.html.slice(slot + this.options.shell.PAGE_SLOT.length);
    const extra = owner ? this.pageRoute(view.manifest, pagePath) : undefined;
    const html = composePage(
      template,
      {
        head,
        html: root,
        scripts,
        // A group's document (its 404 page too) its group's pins; a shell page runs no group's code.
        pins: pinsOf(owner ?? groupAt(view.manifest.remotes, urlPath)),
        status: page.status,
        path: meta.path,
        remote: owner !== null,
        ...(extra ? { route: scriptJson(extra.route) } : {}),
      },
      view.embedded,
    );
    this.options.metrics.composed(owner, template.id, (performance.now() - started) / 1000);
    return {
      status: page.status,
      html,
      owner,
      failure: page.failure,
      lastGood: page.lastGood ?? null,
    };
  }
}
