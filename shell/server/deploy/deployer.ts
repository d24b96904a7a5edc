/**
 * What a deploy and a rollback do, apart from HTTP: every check a new entry must pass before it goes
 * live, and the compare-and-swap that makes it live. Any failure leaves the live manifest as it was
 * and says why (a RefusedError with a status and a code).
 *
 * Before an entry goes live: its origin must be allowed; its route table is fetched from there (no
 * redirect followed) and read with the browser's parser; its paths must stay in its prefixes and
 * clear of every other group's; the shared packages it needs must be provided by the live shell;
 * its Node build is fetched and pinned by SHA-256 (and must be the file the team built, when the
 * team says which); and every one of its pages must render on the server from that pinned file.
 *
 * Before any of that, the change's credential must be allowed to change every group it names (a
 * group's deploy token moves only its own group), and the route table must name the group it is
 * published as and claim no path the site serves itself.
 *
 * The compare-and-swap is in publisher.ts and the canaries' changes in canary-deployer.ts. The
 * checks of one change run beside another's (a group whose checks are slow holds up no other team,
 * and is refused past the checks' time limit); only the commits are one at a time.
 */
import type { RemoteDeployment } from '@site/contracts';
import type { Release } from '@site/contracts/deploy-api';
import type { CanaryPlan } from '@site/contracts/canary-plan';
import { CanaryDeployer, type CanaryRef } from './canary-deployer';
import { authorize, newReleaseId, type Change, type Credential } from './change';
import { rollbackTarget, type HistoryEntry } from './history';
import { RefusedError, type PublishedEntry } from './patch';
import { Publisher, type DeployerOptions } from './publisher';
import { touchedPage, type TouchedPage } from './touched-page';

export class Deployer {
  private readonly publisher: Publisher;
  private readonly canaries: CanaryDeployer;

  constructor(private readonly options: DeployerOptions) {
    this.publisher = new Publisher(options);
    this.canaries = new CanaryDeployer(options, this.publisher);
  }

  async deploy(published: PublishedEntry, change: Change): Promise<HistoryEntry> {
    const [done] = await this.publisher.publish([published], {
      ...change,
      reason: change.reason || `deploy ${published.version}`,
      action: 'deploy',
    });
    return done!;
  }

  /**
   * Every check of a deploy, without going live: the entry as it would be published (its pin
   * included), for a preview link, and the page the link should open (touched-page.ts).
   */
  async preview(
    published: PublishedEntry,
    base: string,
    credential: Credential,
  ): Promise<{ remote: RemoteDeployment; page: TouchedPage }> {
    authorize(credential, [published.name]);
    const { before, changed } = await this.publisher.checked([published], base);
    const remote = changed[0]!;
    return { remote, page: await touchedPage(before.manifest, remote, this.options.renderPage) };
  }

  /** A canary of one group (canary-deployer.ts). */
  canary(
    published: PublishedEntry,
    percent: number,
    change: Change,
    plan: CanaryPlan = {},
  ): Promise<HistoryEntry> {
    return this.canaries.canary(published, percent, change, plan);
  }

  /**
   * Several groups in one change: every entry passes every check, then all go live in one
   * compare-and-swap, recorded under one release id; or none does.
   */
  async release(entries: readonly PublishedEntry[], change: Change): Promise<Release> {
    const id = newReleaseId();
    const changes = await this.publisher.publish(entries, {
      ...change,
      reason: change.reason || `release ${entries.map((e) => `${e.name} ${e.version}`).join(', ')}`,
      action: 'deploy',
      release: id,
    });
    return { release: id, manifestVersion: changes[0]!.manifestVersion, changes };
  }

  /**
   * Takes a release back as one: every group it changed returns to the version it had before, in
   * one compare-and-swap (itself a release). Refused when a group has moved on since, or was not
   * live before the release.
   */
  async rollbackRelease(id: string, change: Change): Promise<Release> {
    const released = (await this.options.history()).filter((e) => e.release === id);
    if (released.length === 0) {
      throw new RefusedError(404, 'no_such_release', `there is no release "${id}" in the history`);
    }
    authorize(
      change.credential,
      released.map((e) => e.remote),
    );
    const live = await this.options.current();
    const targets: PublishedEntry[] = [];
    for (const entry of released) {
      const now = live.manifest.remotes.find((r) => r.name === entry.remote);
      if (now?.version !== entry.to.version || now.entry !== entry.to.entry) {
        throw new RefusedError(
          409,
          'moved_on',
          `"${entry.remote}" has changed since release ${id} (it is ${now ? now.version : 'not deployed'} now): roll it back on its own`,
        );
      }
      if (!entry.from) {
        throw new RefusedError(
          422,
          'nothing_before',
          `"${entry.remote}" was not live before release ${id}: there is no version to go back to`,
        );
      }
      targets.push({ name: entry.remote, ...entry.from });
    }
    const rollback = newReleaseId();
    const changes = await this.publisher.publish(targets, {
      ...change,
      reason: change.reason || `roll back release ${id}`,
      action: 'rollback',
      release: rollback,
    });
    return { release: rollback, manifestVersion: changes[0]!.manifestVersion, changes };
  }

  /**
   * A group back to an earlier version: `to`, or the one last live for everyone before the one
   * live now. A running canary is ended first, on its own (everyone keeps the stable version).
   */
  async rollback(name: string, to: string | undefined, change: Change): Promise<HistoryEntry> {
    authorize(change.credential, [name]);
    const live = await this.options.current();
    const canary = live.canaries.find((c) => c.remote.name === name);
    const current = live.manifest.remotes.find((r) => r.name === name)?.version;
    if (canary && to === undefined) {
      return this.canaries.endCanary(live, canary.remote.name, change.base, {
        by: change.by,
        credential: change.credential,
        reason:
          change.reason ||
          `end the canary of ${canary.remote.version}; ${current} stays live for everyone`,
        deadline: change.deadline,
      });
    }
    const target = rollbackTarget(await this.options.history(name), current, to);
    if (!target) {
      throw new RefusedError(
        404,
        'no_such_version',
        to
          ? `"${name}" has never been live at ${to}`
          : `"${name}" has no earlier version in the history`,
      );
    }
    // The version goes back exactly as it was live: its Node build and the files its pages load
    // must still be the pinned ones.
    const [done] = await this.publisher.publish([{ name, ...target }], {
      ...change,
      reason:
        change.reason ||
        (to === undefined
          ? `roll back to ${target.version}, the version live for everyone before ${current}`
          : `roll back to ${target.version}`),
      action: 'rollback',
    });
    return done!;
  }

  /** The history, every group's or only those `credential` may change (a group's token). */
  async history(remote: string | undefined, credential: Credential): Promise<HistoryEntry[]> {
    const all = await this.options.history(remote);
    const groups = credential.groups;
    return groups ? all.filter((e) => groups.includes(e.remote)) : all;
  }

  /** The automatic rollback of canaries judged failing (canary-deployer.ts). */
  rollBackCanaries(canaries: readonly CanaryRef[], reason: string): Promise<HistoryEntry[] | null> {
    return this.canaries.rollBackCanaries(canaries, reason);
  }

  /** A step of a progressive canary (canary-deployer.ts). */
  stepCanaries(
    canaries: readonly CanaryRef[],
    percent: number,
    reason: string,
  ): Promise<HistoryEntry[] | null> {
    return this.canaries.stepCanaries(canaries, percent, reason);
  }

  /** The last step of a progressive canary: its versions live for everyone (canary-deployer.ts). */
  promoteCanaries(canaries: readonly CanaryRef[], reason: string): Promise<HistoryEntry[] | null> {
    return this.canaries.promoteCanaries(canaries, reason);
  }

  /** Canaries of several groups released together (canary-deployer.ts). */
  canaryRelease(
    entries: readonly PublishedEntry[],
    percent: number,
    change: Change,
    plan: CanaryPlan = {},
  ): Promise<Release> {
    return this.canaries.canaryRelease(entries, percent, change, plan);
  }
}
