/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { RemoteDeployment } from '@site/contracts';
import { PREVIEW_COOKIE } from '../../previews/preview';
import { drawn, startFixture, type SiteFixture } from './site-fixture';

/**
 * A team that floods the site with preview deploys through the real deploy API holds a bounded
 * number of render pools and processes; the oldest preview's link still shows its version, and
 * another group's pages render as before. The figures (processes, memory, render times, load) are
 * printed for the record, not judged: a timer decides nothing here.
 */
const MEMORY_MB = 256;
const GROUP_MEMORY_MB = 512;
const PREVIEW_POOLS = 2;
const FLOOD = 16;
let fixture: SiteFixture;

beforeAll(async () => {
  fixture = await startFixture({
    settings: {
      RENDER_MEMORY_MB: String(MEMORY_MB),
      GROUP_RENDER_MEMORY_MB: String(GROUP_MEMORY_MB),
      PREVIEW_RENDER_POOLS: String(PREVIEW_POOLS),
    },
  });
}, 180_000);

afterAll(() => fixture?.close());

const pools = () => fixture.site.app.renderPools();
const poolsOf = (group: string) => pools().groupPools.filter((p) => p.name.startsWith(`${group}@`));
const processesOf = (group: string) => poolsOf(group).flatMap((p) => p.processes);
// A retired pool may still finish a render it holds (its processes count in the budget above).
const openPoolsOf = (group: string) =>
  pools().openGroupPools.filter((p) => p.name.startsWith(`${group}@`));

const residentMb = (pids: readonly number[]) =>
  pids.reduce((sum, pid) => {
    try {
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      return sum + Number(kb ?? 0) / 1024;
    } catch {
      return sum;
    }
  }, 0);

/**
 * Another group's page as a composition no cache answers makes it: the frame by the shell's
 * processes and the page by its group's, each time rendered anew, and timed.
 */
async function timeRenders(remote: RemoteDeployment, count: number): Promise<number[]> {
  const times: number[] = [];
  const manifest = (await fixture.site.manifest()).manifest;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const [frame, page] = await Promise.all([
      pools().shell.render({ part: 'frame', manifest, path: '/probe/hello' }),
      pools()
        .group(remote)
        .render({
          part: 'page',
          manifest: { ...manifest, remotes: [remote] },
          path: '/probe/hello',
        }),
    ]);
    times.push(performance.now() - started);
    expect([frame.failure, page.failure]).toEqual([null, null]);
  }
  return times;
}

const summary = (times: readonly number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
};

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

test(`${FLOOD} preview deploys: the group's render processes stay within its budget, its oldest preview still opens, and another group's pages render as before`, async () => {
  const live = (await fixture.site.manifest()).manifest;
  const probe = live.remotes.find((r) => r.name === 'probe')!;
  expect((await fixture.inject('/other/page')).statusCode).toBe(200);
  await timeRenders(probe, 1);
  const quiet = await timeRenders(probe, 40);
  const before = { processes: processesOf('other').length, all: allProcesses(), load: load() };

  // The flood: every preview deploy at once, while another group's page keeps being rendered.
  let most = { processes: 0, pools: 0 };
  const sample = () => {
    most = {
      processes: Math.max(most.processes, processesOf('other').length),
      pools: Math.max(most.pools, openPoolsOf('other').length),
    };
  };
  const links: string[] = [];
  const during: number[] = [];
  let flooding = true;
  const renders = (async () => {
    while (flooding) {
      during.push(...(await timeRenders(probe, 1)));
      sample();
      // Paced as visitors' requests come, so the measuring does not starve what it measures.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const base = (await fixture.site.manifest()).version;
  await Promise.all(
    Array.from({ length: FLOOD }, async (_, i) => {
      const version = `1.1.${i}`;
      const published = fixture.version('other', version);
      const answer = await fixture.deploy('PUT', '/remotes/other', {
        base,
        entry: published.entry,
        version,
        serverIntegrity: published.serverIntegrity,
        preview: true,
      });
      sample();
      expect([version, answer.status]).toEqual([version, 200]);
      links[i] = (answer.body.preview as { url: string }).url;
    }),
  );
  flooding = false;
  await renders;
  sample();
  const after = {
    processes: processesOf('other').length,
    pools: poolsOf('other').length,
    memoryMb: Math.round(residentMb(processesOf('other'))),
    all: allProcesses(),
    load: load(),
  };

  // The oldest preview's pool was retired; its link still shows its version.
  const link = new URL(links[0]!);
  const token = link.pathname.slice('/_preview/'.length);
  const opened = await fixture.inject(`${link.pathname}${link.search}`);
  expect(opened.statusCode).toBe(303);
  const page = await fixture.inject({
    url: '/other/page',
    headers: { cookie: `${PREVIEW_COOKIE}=${token}` },
  });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain(drawn('other', '1.1.0', '/other/page'));
  sample();
  const calm = await timeRenders(probe, 40);

  console.log(
    [
      `preview flood of ${FLOOD} deploys (budget ${GROUP_MEMORY_MB} MB = ${GROUP_MEMORY_MB / MEMORY_MB} processes, ${PREVIEW_POOLS} preview pools):`,
      `  before: other's processes ${before.processes}, all render processes ${before.all}, load ${before.load}`,
      `  most during: other's processes ${most.processes}, other's pools ${most.pools}`,
      `  after: other's processes ${after.processes} (${after.memoryMb} MB), pools ${after.pools}, all render processes ${after.all}, load ${after.load}`,
      `  probe's page rendered, quiet: ${summary(quiet)}`,
      `  during the flood (${during.length}): ${summary(during)}`,
      `  after: ${summary(calm)}`,
    ].join('\n'),
  );
  expect(most.processes).toBeLessThanOrEqual(GROUP_MEMORY_MB / MEMORY_MB);
  expect(most.pools).toBeLessThanOrEqual(1 + PREVIEW_POOLS);
  expect(processesOf('other').length).toBeLessThanOrEqual(GROUP_MEMORY_MB / MEMORY_MB);
}, 240_000);

function allProcesses(): number {
  return pools().shell.processes.length + pools().groupPools.flatMap((p) => p.processes).length;
}
