/**
 * @jest-environment node
 */
/**
 * What is kept of the last good pages is bounded: a page over the size limit is not kept, the
 * pages known good longest ago go first when there are more than the count, and a page served as
 * it was composed stays fresh. Kept in PostgreSQL, a database of its own for each test.
 */
import type { RemoteDeployment } from '@site/contracts';
import { PostgresLastGoodStore } from '../control-plane/last-good-postgres';
import { migrate } from '../control-plane/migrate';
import { LastGoodPages } from '../pages/last-good';
import pg from 'pg';
import { freshDatabase } from './test-postgres';

jest.setTimeout(30_000);

const HOUR = 60 * 60 * 1000;
const data = { name: 'data', version: '1.0.0' } as RemoteDeployment;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the last good pages', () => {
  let store: PostgresLastGoodStore;
  let now: number;
  let pages: LastGoodPages;

  beforeEach(async () => {
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    await migrate(pool);
    await pool.end();
    store = new PostgresLastGoodStore(url);
    now = Date.parse('2026-11-29T04:00:00Z');
    pages = new LastGoodPages(
      store,
      { maxAgeMs: 24 * HOUR, maxPages: 2, maxPageBytes: 1000 },
      silent,
      () => now,
    );
  });

  afterEach(() => pages.close());

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
