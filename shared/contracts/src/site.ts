import site from '../site.json';

/**
 * The site's shape, in one place (`shared/contracts/site.json`, which the CommonJS build and run scripts read
 * as it is): the shell's own pages and port, and each page group's federation name, workspace
 * folder, local port and path prefixes. Each group's route table repeats its prefixes as the
 * contract it publishes; its contract tests hold the two equal.
 */
export interface RemoteSlot {
  /** Federation name, e.g. `custom_dev`. */
  name: string;
  /** Workspace folder, e.g. `mfe-custom-dev`. */
  folder: string;
  /** Port of its local static host. */
  port: number;
  prefixes: string[];
}

export const SHELL_PORT: number = site.shell.port;

/** The shell's own pages by name; `services` is the hub that lists every group and its pages. */
export const SHELL_PAGES: {
  home: string;
  about: string;
  services: string;
  contact: string;
  privacy: string;
} = site.shell.pages;

/** The shell's own paths. */
export const SHELL_PATHS: readonly string[] = Object.values(SHELL_PAGES);

export const SITE_REMOTES: readonly RemoteSlot[] = site.remotes;
