/**
 * @jest-environment node
 */
/**
 * What is kept of the last good pages is bounded: a page over the size limit is not kept, the
 * pages known good longest ago go first when there are more than the count, and a page served as
 * it was composed stays fresh. Both stores: files (one server) and PostgreSQL (replicas).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RemoteDeployment } from '@site/contracts';
import { FileLastGoodStore } from '../control-plane/last-good-files';
import { PostgresLastGoodStore } from '../control-plane/last-good-postgres';
import { migrate } from '../control-plane/migrate';
import { LastGoodPages, type LastGoodStore } from '../pages/last-good';
import pg from 'pg';
import { freshDatabase, startPostgres, type TestPostgres } from './control-plane-helpers';

jest.setTimeout(30_000);

const HOUR = 60 * 60 * 1000;
const data = { name: 'data', version: '1.0.0' } as RemoteDeployment;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let postgres: TestPostgres | undefined;
afterAll(() => postgres?.stop());

/** A store of each kind, and how to make a fresh one. */
const stores: [string, () => Promise<{ store: LastGoodStore; done: () => void }>][] = [
  [
    'files',
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'last-good-store-'));
      return {
        store: new FileLastGoodStore(dir),
        done: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      postgres ??= await startPostgres({ port: 3474 });
      const url = await freshDatabase(postgres.url);
      const pool = new pg.Pool({ connectionString: url });
      await migrate(pool);
      await pool.end();
      return { store: new PostgresLastGoodStore(url), done: () => undefined };
    },
  ],
];

describe.each(stores)('the last good pages in %s', (_, open) => {
  let store: LastGoodStore;
  let done: () => void;
  let now: number;
  let pages: LastGoodPages;

  beforeEach(async () => {
    ({ store, done } = await open());
    now = Date.parse('2026-11-29T04:00:00Z');
    pages = new LastGoodPages(
      store,
      { maxAgeMs: 24 * HOUR, maxPages: 2, maxPageBytes: 1000 },
      silent,
      () => now,
    );
  });

  afterEach(async () => {
    await pages.close();
    done();
  });

  /** Renders `path` now and lets it be written. */
  async function render(urlPath: string, html: string) {
    pages.rendered(data, urlPath, html);
    // Written in the background; a new LastGoodPages over the same store reads what it wrote.
    await pages.settled();
  }

  it('keeps at most the count, those known good longest ago going first', async () => {
    await render('/a', '<p>a</p>');
    now += HOUR;
    await render('/b', '<p>b</p>');
    now += HOUR;
    await render('/c', '<p>c</p>');

    expect(await pages.find(data, '/a')).toBeUndefined();
    expect(await pages.find(data, '/b')).toEqual({ html: '<p>b</p>', goodAt: now - HOUR });
    expect(await pages.find(data, '/c')).toEqual({ html: '<p>c</p>', goodAt: now });
    // Only the same version stands in.
    expect(await pages.find({ ...data, version: '1.0.1' }, '/c')).toBeUndefined();
  });

  it('keeps no page over the size limit', async () => {
    await render('/big', `<p>${'x'.repeat(1000)}</p>`);
    expect(await pages.find(data, '/big')).toBeUndefined();
  });

  it('stands in for the stated time after the page was last known good, served or rendered', async () => {
    await render('/a', '<p>a</p>');
    now += 20 * HOUR;
    // Served as composed: good still (the store hears of it a few times a day at most).
    pages.served(data, '/a');
    await pages.settled();
    now += 20 * HOUR;
    expect(await pages.find(data, '/a')).toEqual({ html: '<p>a</p>', goodAt: now - 20 * HOUR });
    now += 5 * HOUR;
    expect(await pages.find(data, '/a')).toBeUndefined();
  });
});
