import { BEACON_URL, watchPageErrors } from '../federation/beacon';

/**
 * What the shell's error reporter sends, and how little. jsdom has no `navigator.sendBeacon`, so
 * the test gives it one that keeps what it is handed; the browser test (tests/e2e/metrics.spec.ts)
 * sends real beacons to a real site.
 */
const sent: { url: string; body: unknown }[] = [];
Object.defineProperty(navigator, 'sendBeacon', {
  configurable: true,
  value: (url: string, body: string) => {
    sent.push({ url, body: JSON.parse(body) as unknown });
    return true;
  },
});

const DATA = { name: 'data', version: '1.4.0' };
watchPageErrors((path) => (path.startsWith('/services/data/') ? DATA : undefined));

const throwOnPage = (message: string) =>
  window.dispatchEvent(new ErrorEvent('error', { error: new Error(message), message }));
/** Reports are sent once the code that sends them is loaded: a moment later. */
const reported = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  sent.length = 0;
});

test("an error on a group's page is reported with that group and version, as text the site reads as JSON", async () => {
  window.history.pushState({}, '', '/services/data/big-data');
  throwOnPage('x is undefined');
  await reported();
  expect(sent).toEqual([
    {
      url: BEACON_URL,
      body: {
        kind: 'page-error',
        group: 'data',
        version: '1.4.0',
        message: 'Error: x is undefined',
      },
    },
  ]);
});

test('a rejected promise counts too; the same error twice is sent once; three a page view at most', async () => {
  window.history.pushState({}, '', '/services/data/visualization');
  const rejection = new Event('unhandledrejection') as Event & { reason?: unknown };
  rejection.reason = new TypeError('failed to fetch');
  window.dispatchEvent(rejection);
  throwOnPage('one');
  throwOnPage('one');
  throwOnPage('two');
  throwOnPage('three');
  await reported();
  expect(sent.map((s) => (s.body as { message: string }).message)).toEqual([
    'TypeError: failed to fetch',
    'Error: one',
    'Error: two',
  ]);
  // The next page view has a budget of its own.
  window.history.pushState({}, '', '/services/data/big-data');
  throwOnPage('one');
  await reported();
  expect(sent).toHaveLength(4);
});

test("an error on one of the shell's own pages is no group's and is not sent", async () => {
  window.history.pushState({}, '', '/about');
  throwOnPage('on the about page');
  await reported();
  expect(sent).toEqual([]);
});
