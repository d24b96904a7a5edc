import fs from 'node:fs';
import path from 'node:path';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { company } from '@site/shared';
import { TechnologyLogos } from '../components/TechnologyLogos';
import { homeContent } from '../content/home';

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
    const contentFiles = [
      'shell/src/content',
      'mfe-custom-dev/src/content',
      'mfe-data/src/content',
      'mfe-enterprise-education/src/content',
      'mfe-public-health/src/content',
    ].flatMap((dir) =>
      fs.readdirSync(path.join(REPO, dir)).map((file) => path.join(REPO, dir, file)),
    );
    const routeTables = [
      'mfe-custom-dev',
      'mfe-data',
      'mfe-enterprise-education',
      'mfe-public-health',
    ].map((app) => path.join(REPO, app, 'src', 'routes.json'));
    const spelled = [...contentFiles, ...routeTables].filter((file) =>
      fs.readFileSync(file, 'utf8').includes(String(company.foundingYear)),
    );
    expect(spelled.map((file) => path.relative(REPO, file))).toEqual([]);
  });
});

describe('the technology wall', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build's own sprite maker
  const { techMarksSprite } = require('../../webpack/tech-marks.cjs') as {
    techMarksSprite: () => { source: string };
  };
  const sprite = techMarksSprite().source;

  it('shows every technology on the home page as a mark or wordmark named for screen readers', () => {
    render(
      <MemoryRouter>
        <TechnologyLogos names={homeContent.technologies.items} />
      </MemoryRouter>,
    );
    const list = screen.getByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(homeContent.technologies.items.length);
    for (const name of homeContent.technologies.items) {
      const logo = within(list).getByRole('img', { name });
      if (logo.tagName.toLowerCase() === 'svg') {
        // A real mark: a drawn path from the sprite the build makes, not lettering.
        const slug = logo.querySelector('use')?.getAttribute('href')?.split('#')[1] ?? '';
        expect(sprite).toMatch(new RegExp(`<symbol id="${slug}" viewBox="0 0 24 24"><path d="M`));
        expect(logo.querySelector('text')).toBeNull();
      } else {
        // A wordmark: the whole name, never initials.
        expect(logo).toHaveTextContent(name);
      }
    }
  });
});
