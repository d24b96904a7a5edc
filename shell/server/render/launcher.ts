/**
 * How a render process is started: Node's permission model always (permissions.ts), and, where
 * the site server runs as root (a container, CI), the operating system as a wall under it: the
 * process runs as an unprivileged user (RENDER_USER, `nobody` by default), which cannot read the
 * mail-service's outbox or the control plane's files (their folders are the owner's alone), in a
 * network namespace of its own with no interface up (util-linux's `unshare`), so even code that
 * found a way past Node's walls reaches no file it may not read and no address at all.
 *
 * Not root, the processes run as the site server's own user: Node's walls and the built-in
 * allow-list are all there is, which the site server says when it starts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

export interface RenderUser {
  name: string;
  uid: number;
  gid: number;
}

export interface RenderWall {
  /** The program that starts a render process, and what goes before Node's own arguments. */
  command: string;
  prefix: string[];
  /** The user the processes run as, when not the site server's. */
  user: RenderUser | undefined;
  /** Whether the processes have a network namespace of their own. */
  isolatedNetwork: boolean;
}

/** A user of /etc/passwd by name, or undefined. */
export function lookUpUser(name: string, passwd = '/etc/passwd'): RenderUser | undefined {
  let text: string;
  try {
    text = readFileSync(passwd, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && /^\d+$/.test(uid ?? '') && /^\d+$/.test(gid ?? '')) {
      return { name, uid: Number(uid), gid: Number(gid) };
    }
  }
  return undefined;
}

const works = (command: string, args: string[]): boolean =>
  spawnSync(command, [...args, process.execPath, '-e', ''], { stdio: 'ignore', timeout: 10_000 })
    .status === 0;

/**
 * The strongest wall this machine allows, tried once at start: as root, `unshare --net` and
 * `setpriv` to the render user (no supplementary groups, no new privileges), or `setpriv` alone
 * where namespaces are not allowed (a container without CAP_SYS_ADMIN); otherwise Node alone.
 */
export function chooseWall(userName: string): RenderWall {
  // The built-in allow-list needs module.registerHooks (Node 22.15 and 23.5 on).
  if (typeof registerHooks !== 'function') {
    throw new Error(
      `Node ${process.versions.node} cannot run the render processes: they need Node 22.15 or newer (npm start and npm test use the project's Node 24)`,
    );
  }
  const node = { command: process.execPath, prefix: [] };
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    return { ...node, user: undefined, isolatedNetwork: false };
  }
  const user = lookUpUser(userName);
  if (!user) {
    throw new Error(
      `RENDER_USER: there is no user "${userName}" on this machine for the render processes to run as`,
    );
  }
  const drop = [
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    '--clear-groups',
    '--no-new-privs',
    '--',
  ];
  const isolated = ['--net', '--', 'setpriv', ...drop];
  if (works('unshare', isolated)) {
    return {
      command: 'unshare',
      prefix: [...isolated, process.execPath],
      user,
      isolatedNetwork: true,
    };
  }
  if (works('setpriv', drop)) {
    return {
      command: 'setpriv',
      prefix: [...drop, process.execPath],
      user,
      isolatedNetwork: false,
    };
  }
  throw new Error(
    `the render processes cannot be started as ${userName}: util-linux's setpriv is missing or not allowed here`,
  );
}

/** The wall in words, for the site server's start-up line. */
export function describeWall(wall: RenderWall): string {
  if (!wall.user)
    return "as the site server's own user (run it as root for an OS user of their own)";
  return `as ${wall.user.name} (uid ${wall.user.uid})${wall.isolatedNetwork ? ', with no network' : ''}`;
}
