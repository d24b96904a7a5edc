import { readdirSync } from 'node:fs';
import path from 'node:path';
import { render } from '@testing-library/react';
import type { ComponentType } from 'react';
import { renderPage } from '@site/build/testing';
import type { RemotePagesModule } from '@site/contracts';
import { SITE_REMOTES } from '@site/contracts/site';

/**
 * Every page has a picture of its own: each page of every group in the site table, rendered as a
 * visitor gets it, and the shell's own pages' pictures, compared drawing by drawing.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The drawing in a rendered page's hero, or in a picture rendered on its own. */
const drawing = (container: HTMLElement) =>
  (container.querySelector('.hero__art svg') ?? container.querySelector('svg.art'))?.innerHTML;

const pictures: { page: string; drawing: string | undefined }[] = [];

beforeAll(async () => {
  for (const remote of SITE_REMOTES) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each group in the site table
    const { pages } = require(path.join(ROOT, remote.folder, 'src', 'pages')) as RemotePagesModule;
    for (const [page, load] of Object.entries(pages)) {
      const { default: Page } = await load();
      const { container, unmount } = renderPage(<Page />, page);
      pictures.push({ page, drawing: drawing(container) });
      unmount();
    }
  }
  const shellArt = path.join(ROOT, 'shell', 'src', 'art');
  for (const file of readdirSync(shellArt)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each picture of the shell
    const module = require(path.join(shellArt, file)) as Record<string, ComponentType>;
    for (const [name, Picture] of Object.entries(module)) {
      const { container, unmount } = render(<Picture />);
      pictures.push({ page: `shell ${name}`, drawing: drawing(container) });
      unmount();
    }
  }
}, 60_000);

describe('the pictures of the pages', () => {
  it('are there on every page of every group', () => {
    const groupPages = SITE_REMOTES.length;
    expect(pictures.length).toBeGreaterThan(groupPages);
    expect(pictures.filter((p) => !p.drawing).map((p) => p.page)).toEqual([]);
  });

  it('are never the same on two pages: no service page shares its picture with another page', () => {
    const byDrawing = new Map<string, string[]>();
    for (const { page, drawing: d } of pictures)
      byDrawing.set(d!, [...(byDrawing.get(d!) ?? []), page]);
    const shared = [...byDrawing.values()].filter((pages) => pages.length > 1);
    expect(shared).toEqual([]);
  });
});
