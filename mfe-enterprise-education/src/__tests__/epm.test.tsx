import { screen, within } from '@testing-library/react';
import { renderPage } from '@site/build/testing';
import { pages } from '../pages';
import { routeTable } from '../routes';

const renderEpm = async () => {
  const { default: EpmPage } = await pages['/services/enterprise/epm']!();
  return renderPage(<EpmPage />, '/services/enterprise/epm');
};

/** The page's sentences that name Project Online. */
const sentencesNaming = (text: string, name: string) =>
  text.split(/(?<=[.!?:])\s+|\n/).filter((sentence) => sentence.includes(name));

describe('the EPM page, now that Project Online is retired', () => {
  it('does not offer Project Online among the platforms to choose', async () => {
    await renderEpm();
    const platforms = screen.getByRole('heading', {
      level: 2,
      name: /Project Online portfolio can go/,
    }).parentElement as HTMLElement;
    const offered = within(platforms)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(offered).toEqual(
      expect.arrayContaining([
        'Planner and Project for the web',
        'Project Server Subscription Edition',
      ]),
    );
    for (const heading of screen.getAllByRole('heading')) {
      expect(heading.textContent).not.toMatch(/^Project Online$/);
    }
  });

  it('names Project Online only as something to move off, with its retirement date', async () => {
    const { container } = await renderEpm();
    // Each paragraph, heading and list item on its own, as a reader meets them.
    const text = Array.from(container.querySelectorAll('h1, h2, h3, p, li'))
      .map((el) => el.textContent ?? '')
      .join('\n');
    expect(text).toContain('30 September 2026');
    const sentences = sentencesNaming(text, 'Project Online');
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) {
      expect(sentence).toMatch(
        /retired|stopped selling|switched it off|move|moving|migration|did|can go now|after/i,
      );
    }
    for (const sentence of sentencesNaming(
      routeTable.routes.find((r) => r.path === '/services/enterprise/epm')?.description ?? '',
      'Project Online',
    )) {
      expect(sentence).toMatch(/moving off|migration/i);
    }
  });
});
