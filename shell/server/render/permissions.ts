/**
 * The command line that starts a render process under Node's permission model: it may read the
 * folders it is given and nothing else; it may not write a file, start a process or a thread,
 * load an addon or open the inspector (the model denies whatever it is not told to allow).
 */

export interface NodeFeatures {
  /** `process.allowedNodeEnvironmentFlags` of the Node that will run the process. */
  flags: ReadonlySet<string>;
  /** `process.versions.node`. */
  version: string;
}

export const RUNNING_NODE: NodeFeatures = {
  flags: process.allowedNodeEnvironmentFlags,
  version: process.versions.node,
};

/**
 * Node 20.0 to 20.6 read `--allow-fs-read` as one comma-separated list; from 20.7 on (22, 24, ...)
 * each path is a flag of its own, and a list is taken as a single path that matches nothing.
 */
function takesCommaList({ version }: NodeFeatures): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major === 20 && minor < 7;
}

/**
 * Node's flags for a process that may read exactly `readable` (absolute paths of folders or
 * files). Node 25's network permission needs no flag: leaving out `--allow-net` denies it.
 */
export function permissionArgs(
  readable: readonly string[],
  node: NodeFeatures = RUNNING_NODE,
): string[] {
  const model = ['--permission', '--experimental-permission'].find((flag) => node.flags.has(flag));
  if (!model) {
    throw new Error(
      `Node ${node.version} has no permission model; the render processes need Node 20 or newer`,
    );
  }
  if (readable.length === 0) throw new Error('a render process must be able to read its code');
  let reads: string[];
  if (takesCommaList(node)) {
    const withComma = readable.find((p) => p.includes(','));
    if (withComma)
      throw new Error(`Node ${node.version} cannot allow a path with a comma: ${withComma}`);
    reads = [`--allow-fs-read=${readable.join(',')}`];
  } else {
    reads = readable.map((p) => `--allow-fs-read=${p}`);
  }
  // The model is experimental on Node 20; its warning on every start says nothing new.
  const quiet = node.flags.has('--disable-warning')
    ? '--disable-warning=ExperimentalWarning'
    : '--no-warnings';
  return [model, ...reads, quiet];
}
