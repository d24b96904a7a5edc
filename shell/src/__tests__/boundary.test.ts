import type { DeploymentManifest, RemoteDeployment } from '@site/contracts';
import { SITE_REMOTES } from '@site/contracts/site';
import { enterDocument, ownerOf, withinDocument } from '../federation/boundary';
import { LazyPage, type MatchRoute, type SiteRoute } from '../page-ref';

const remote = (name: string, prefixes: string[]): RemoteDeployment => ({
  name,
  entry: `http://localhost:3001/1.0.0/remoteEntry.js`,
  version: '1.0.0',
  prefixes,
  routes: prefixes.map((path) => ({
    path,
    title: `Overview of ${path}`,
    group: name,
    navLabel: path,
    description: `A description of ${path} that is long enough for the contract.`,
  })),
});

const manifest: DeploymentManifest = {
  schemaVersion: 1,
  generatedAt: '2026-11-29T00:00:00.000Z',
  remotes: SITE_REMOTES.map((r) => remote(r.name, r.prefixes)),
  unavailable: [{ name: 'retired', prefixes: ['/retired'], reason: 'not readable' }],
};

/** The routes as the site matches them: every path a page of its own, /missing the 404 page. */
const routes: MatchRoute = (path): SiteRoute => ({
  meta: { path, title: path, description: path },
  status: path.endsWith('/missing') ? 404 : 200,
  page: { kind: 'lazy', lazy: new LazyPage(`page:${path}`, () => new Promise(() => undefined)) },
});

const pageOf = (route: SiteRoute) => (route.page.kind === 'lazy' ? route.page.lazy.id : '');

describe('one owner per document', () => {
  test('each path has one owner: a group by its prefixes, the contact page, or the shell', () => {
    expect(ownerOf(manifest, '/services/data-analytics/big-data')).toBe('group:data');
    expect(ownerOf(manifest, '/services/business-intelligence')).toBe('group:data');
    expect(ownerOf(manifest, '/services/custom-dev/')).toBe('group:custom_dev');
    expect(ownerOf(manifest, '/retired/page')).toBe('group:retired');
    expect(ownerOf(manifest, '/contact')).toBe('contact');
    expect(ownerOf(manifest, '/contact/?from=nav#form')).toBe('contact');
    expect(ownerOf(manifest, '/')).toBe('shell');
    expect(ownerOf(manifest, '/about')).toBe('shell');
    expect(ownerOf(manifest, '/services')).toBe('shell');
    expect(ownerOf(manifest, '/no-such-page')).toBe('shell');
  });

  test("in a group's document, its pages render in place; another owner's page and a page it does not know are page loads", () => {
    enterDocument(manifest, '/services/data-analytics');
    const within = withinDocument(routes);
    expect(pageOf(within('/services/data-analytics/big-data'))).toBe(
      'page:/services/data-analytics/big-data',
    );
    expect(pageOf(within('/services/business-intelligence'))).toBe(
      'page:/services/business-intelligence',
    );
    for (const path of [
      '/',
      '/contact',
      '/about',
      '/services/custom-dev',
      '/public-health',
      '/services/data-analytics/missing',
    ])
      expect(pageOf(within(path))).toBe(`page-load:${path}`);
  });

  test("in a shell document, shell pages render in place; a group's page and the contact page are page loads", () => {
    enterDocument(manifest, '/');
    const within = withinDocument(routes);
    expect(pageOf(within('/about'))).toBe('page:/about');
    expect(pageOf(within('/missing'))).toBe('page:/missing');
    expect(pageOf(within('/contact'))).toBe('page-load:/contact');
    expect(pageOf(within('/services/custom-dev'))).toBe('page-load:/services/custom-dev');
  });

  test('the page a document was loaded for renders in place, even the 404 page under a prefix', () => {
    enterDocument(manifest, '/services/data-analytics/missing');
    const within = withinDocument(routes);
    expect(pageOf(within('/services/data-analytics/missing'))).toBe(
      'page:/services/data-analytics/missing',
    );
  });
});
