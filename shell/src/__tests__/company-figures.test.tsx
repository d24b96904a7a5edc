import fs from 'node:fs';
import path from 'node:path';
import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '@site/ui';
import { company } from '@site/ui';
import { SITE_REMOTES } from '@site/contracts/site';
import { TechnologyLogos } from '../components/TechnologyLogos';
import { homeContent } from '../content/home';
import HomePage from '../pages/HomePage';

const REPO = path.resolve(__dirname, '..', '..', '..');

describe('figures about the company’s age', () => {
  afterEach(() => jest.useRealTimers());

  it('follow the founding year and the calendar: the About page’s years in business move on', () => {
    const yearsInBusiness = (today: string) => {
      jest.useFakeTimers({ now: new Date(today), doNotFake: ['nextTick', 'setImmediate'] });
      let value = '';
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { aboutContent } = require('../content/about') as typeof import('../content/about');
        value = aboutContent.stats.find((s) => s.label === 'Years in business')?.value ?? '';
      });
      return value;
    };
    expect(yearsInBusiness('2026-11-23')).toBe(String(2026 - company.foundingYear));
    expect(yearsInBusiness('2031-03-01')).toBe(String(2031 - company.foundingYear));
  });

  it('are never typed into the pages’ words: no content file spells the founding year', () => {
    const groups = SITE_REMOTES.map((r) => r.folder);
    const contentFiles = ['shell/src/content', ...groups.map((g) => `${g}/src/content`)].flatMap(
      (dir) => fs.readdirSync(path.join(REPO, dir)).map((file) => path.join(REPO, dir, file)),
    );
    const routeTables = groups.map((app) => path.join(REPO, app, 'src', 'routes.json'));
    const spelled = [...contentFiles, ...routeTables].filter((file) =>
      fs.readFileSync(file, 'utf8').includes(String(company.foundingYear)),
    );
    expect(spelled.map((file) => path.relative(REPO, file))).toEqual([]);
  });
});

describe('the home page’s track record', () => {
  beforeEach(() => {
    window.matchMedia = ((query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as unknown as typeof window.matchMedia;
  });

  it('shows the founding year as it is, never counting: only the years in business count up', () => {
    // Every counter sits just under the screen, where a scroll sets a counter to zero before it
    // comes into view and counts.
    let top = window.innerHeight + 400;
    const rect = jest
      .spyOn(Element.prototype, 'getBoundingClientRect')
      .mockImplementation(() => ({ top, bottom: top + 40 }) as DOMRect);
    render(
      <MemoryRouter>
        <HomePage />
      </MemoryRouter>,
    );
    top = window.innerHeight + 10;
    act(() => void window.dispatchEvent(new Event('scroll')));
    const figures = screen.getByRole('heading', { name: homeContent.intro.heading });
    const band = figures.closest('section') as HTMLElement;
    expect(within(band).getByText(String(company.foundingYear))).toBeVisible();
    expect(
      within(band)
        .getAllByTestId('counter-value')
        .map((c) => c.textContent),
    ).toEqual(['0+']);
    act(() => void window.dispatchEvent(new Event('scrollend')));
    rect.mockRestore();
  });
});

describe('the technology wall', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build's own sprite maker
  const { techMarksSprite } = require('../../webpack/tech-marks.cjs') as {
    techMarksSprite: () => { source: string };
  };
  const sprite = techMarksSprite().source;

  it('shows every technology on the home page by name, over its drawn mark or as a wordmark', () => {
    render(
      <MemoryRouter>
        <TechnologyLogos names={homeContent.technologies.items} />
      </MemoryRouter>,
    );
    const list = screen.getByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(homeContent.technologies.items.length);
    for (const [i, name] of homeContent.technologies.items.entries()) {
      const item = items[i]!;
      // What a tile reads, to anyone: the technology's name, once, and no other lettering.
      expect(item).toHaveTextContent(
        new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      );
      expect(within(item).getByText(name)).toBeVisible();
      const mark = item.querySelector('svg');
      if (mark) {
        // A real mark: a drawn path from the sprite the build makes, not lettering.
        expect(mark).toHaveAttribute('aria-hidden', 'true');
        const slug = mark.querySelector('use')?.getAttribute('href')?.split('#')[1] ?? '';
        expect(sprite).toMatch(new RegExp(`<symbol id="${slug}" viewBox="0 0 24 24"><path d="M`));
        expect(mark.querySelector('text')).toBeNull();
      } else {
        // No mark of the owner's to show: the name itself, set as a wordmark in our type, never
        // initials in a tile and never a symbol made to look like the brand's.
        expect(item).toHaveClass('tech--wordmark');
        expect(within(item).getByText(name)).toHaveClass('tech__wordmark');
        expect(item.querySelector('[aria-hidden="true"]')).toBeNull();
      }
    }
  });

  it('says under the wall which names are set in our own type: exactly the wordmark tiles', () => {
    render(
      <MemoryRouter>
        <TechnologyLogos names={['React', 'Java', '.NET', 'SQL Server']} />
      </MemoryRouter>,
    );
    const wordmarks = screen
      .getAllByRole('listitem')
      .filter((item) => item.classList.contains('tech--wordmark'))
      .map((item) => item.textContent);
    expect(wordmarks).toEqual(['Java', '.NET', 'SQL Server']);
    expect(screen.getByText(/named in our own type/)).toHaveTextContent(
      /Java, \.NET and SQL Server are named in our own type\.$/,
    );
  });
});
