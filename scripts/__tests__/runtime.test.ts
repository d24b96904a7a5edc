import fs from 'node:fs';
import path from 'node:path';

/**
 * The Node the project runs on is pinned: the `node` devDependency puts a supported LTS build in
 * node_modules/.bin, which every npm script runs, whatever Node ran `npm install`. These checks
 * keep the pin, the version files and the docs saying the same thing, and keep the install free of
 * native compiles (a module built for one Node's ABI breaks on the next).
 */

const root = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const pinned = pkg.devDependencies.node ?? '';

describe('the pinned runtime', () => {
  it('is an exact version of an LTS line', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const major = Number(pinned.split('.')[0]);
    // Even majors become LTS; 24 and 26 are the supported lines.
    expect([24, 26]).toContain(major);
  });

  it('is the Node these tests run on, an LTS release', () => {
    expect(process.versions.node).toBe(pinned);
    expect(process.release.lts).toEqual(expect.any(String));
  });

  it('is the version .nvmrc names for version managers', () => {
    expect(fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim()).toBe(pinned);
  });

  it('is the version the README and the deployment guide tell people to run', () => {
    const [major, minor] = pinned.split('.');
    const named = `Node.js ${major}.${minor}`;
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toContain(named);
    const deployment = fs.readFileSync(path.join(root, 'docs', 'deployment.md'), 'utf8');
    expect(deployment).toContain(named);
    expect(deployment).not.toMatch(/Node(\.js)? 20\b/);
  });

  it('lets `npm install` run on the oldest Node a machine may still have', () => {
    // engines is checked against the Node that runs npm; everything after runs the pinned one.
    expect(pkg.engines.node).toBe('>=20.19');
  });
});

describe('the install', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean; optional?: boolean; os?: string[] }>;
  };
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([where]) => where.replace(/^.*node_modules\//, ''));

  it('compiles nothing: no install script the project lets run builds native code', () => {
    // A package set to false in allowScripts never runs its script (npm 11 refuses it).
    for (const name of withScripts.filter((name) => pkg.allowScripts[name] === true)) {
      const folder = path.join(root, 'node_modules', name);
      if (!fs.existsSync(folder)) continue; // another platform's build, never installed here
      expect({ name, gyp: fs.existsSync(path.join(folder, 'binding.gyp')) }).toEqual({
        name,
        gyp: false,
      });
      const scripts = (
        JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
          scripts?: Record<string, string>;
        }
      ).scripts;
      const install = ['preinstall', 'install', 'postinstall']
        .map((hook) => scripts?.[hook] ?? '')
        .join(' ');
      expect({ name, install }).not.toEqual({
        name,
        install: expect.stringMatching(/node-gyp|prebuild|cmake-js/),
      });
    }
  });

  it('runs only the install scripts the project allows by name', () => {
    const installed = withScripts.filter((name) =>
      fs.existsSync(path.join(root, 'node_modules', name)),
    );
    for (const name of installed)
      expect({ name, listed: name in pkg.allowScripts }).toEqual({
        name,
        listed: true,
      });
    expect(Object.keys(pkg.allowScripts)).not.toContain('better-sqlite3');
  });
});
