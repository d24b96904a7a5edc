/**
 * The ports of the local run (`npm start`, `npm run start:cluster`), in one place: what the run
 * scripts listen on, and the range page groups get theirs from (`npm run new-group` takes the
 * next free one).
 */

/** The mail-service's default port (MAIL_SERVICE_PORT). */
export const MAIL_SERVICE_PORT = 3005;

/** The cluster run's own: its site servers (3011…3019), mail-services and PostgreSQL. */
export const CLUSTER = { postgres: 3040, sites: 3011, mailServices: [3021, 3022] } as const;

/** The browser tests' SMTP server. */
const TEST_SMTP_PORT = 3025;

/** Page groups' local static hosts listen in this range. */
export const GROUP_PORTS = { first: 3001, last: 3099 } as const;

/** Ports in reach of a group that the local run gives to others. */
export const RESERVED_PORTS: ReadonlySet<number> = new Set([
  MAIL_SERVICE_PORT,
  ...Array.from({ length: 9 }, (_, i) => CLUSTER.sites + i),
  ...CLUSTER.mailServices,
  TEST_SMTP_PORT,
  CLUSTER.postgres,
]);

/** Every port a page group can have locally: the range, less the reserved ports. */
export function groupPorts(): number[] {
  const ports: number[] = [];
  for (let port = GROUP_PORTS.first; port <= GROUP_PORTS.last; port++) {
    if (!RESERVED_PORTS.has(port)) ports.push(port);
  }
  return ports;
}
