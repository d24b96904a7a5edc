/**
 * The bed's ports: a block of eight from 3420, 3430 or 3440, whichever is free, since a bed torn
 * down after a failed test may still hold its block while the next test's starts.
 */
import net from 'node:net';
import { SITE_REMOTES } from '@site/contracts/site';

/** The fuzz's ports from `base`: the site, the remotes in SITE_REMOTES order, the mail-service, the internal service. */
function portsFrom(base: number) {
  return {
    site: base,
    remotes: SITE_REMOTES.map((_, i) => base + 1 + i),
    mail: base + 5,
    internal: base + 6,
    /** The one origin the deploy API allows; nothing listens there. */
    allowed: base + 7,
  };
}

export type Ports = ReturnType<typeof portsFrom>;

/** Where a bed's ports may start: a bed still closing after a failed test holds one block. */
const PORT_BLOCKS = [3420, 3430, 3440];

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A block of ports where nothing listens, waiting a while for one to come free. */
export async function freePorts(): Promise<Ports> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    for (const base of PORT_BLOCKS) {
      const ports = portsFrom(base);
      const all = [ports.site, ...ports.remotes, ports.mail, ports.internal, ports.allowed];
      if (!(await Promise.all(all.map(portInUse))).some(Boolean)) return ports;
    }
    if (Date.now() > deadline)
      throw new Error(`no free block of ports at ${PORT_BLOCKS.join(', ')} (+0..7)`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
