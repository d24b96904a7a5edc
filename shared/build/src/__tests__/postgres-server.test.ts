/**
 * @jest-environment node
 */
import pg from 'pg';
import {
  createDatabase,
  dropDatabase,
  forkPostgres,
  type ForkedPostgres,
} from '../testing/postgres-server';

let server: ForkedPostgres;
beforeAll(async () => {
  server = await forkPostgres();
}, 60_000);
afterAll(() => server?.stop());

async function databases(): Promise<string[]> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database');
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

describe("a test's own database (the suites' PostgreSQL helper)", () => {
  it.each([
    ['a plain prefix', 'suite'],
    ['a prefix with quotes, spaces and a statement', 'x"; DROP DATABASE site; --'],
    ['a prefix with a line separator and a lone surrogate', 'a\u2028b\ud800'],
  ])('%s: made empty and usable, then dropped, and nothing else touched', async (_, prefix) => {
    const url = await createDatabase(server.url, { prefix });
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    expect(await databases()).toEqual(expect.arrayContaining(['site', name]));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ tables: string }>(
      "SELECT count(*) AS tables FROM pg_tables WHERE schemaname = 'public'",
    );
    // Left open: the drop closes what a test leaves connected.
    expect(rows[0]?.tables).toBe('0');
    client.on('error', () => undefined);
    await dropDatabase(url);
    const left = await databases();
    expect(left).not.toContain(name);
    expect(left).toContain('site');
  });

  it('a prefix PostgreSQL would cut short is refused, naming the limit', async () => {
    await expect(createDatabase(server.url, { prefix: 'p'.repeat(51) })).rejects.toThrow(
      'a database prefix of at most 50 bytes, not 51',
    );
    const longest = await createDatabase(server.url, { prefix: 'p'.repeat(50) });
    expect(longest).toMatch(/\/p{50}_[0-9a-f]{12}$/);
    await dropDatabase(longest);
  });

  it('a copy of a template database holds its rows', async () => {
    const template = await createDatabase(server.url, { prefix: 'template' });
    const client = new pg.Client({ connectionString: template });
    await client.connect();
    await client.query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    await client.end();
    const templateName = decodeURIComponent(new URL(template).pathname.slice(1));
    const copy = await createDatabase(server.url, { prefix: 'copy', template: templateName });
    const reader = new pg.Client({ connectionString: copy });
    await reader.connect();
    const { rows } = await reader.query<{ n: number }>('SELECT n FROM kept');
    await reader.end();
    expect(rows).toEqual([{ n: 7 }]);
    await dropDatabase(copy);
    await dropDatabase(template);
  });
});
