import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cardSlug, pngSize, shareCard } from '../../share-card.cjs';
import { company } from '@site/ui/company';
import { SHARE_CARD, shareCardAlt } from '@site/ui';

const card = {
  title: 'Microsoft EPM',
  group: 'Enterprise',
  company: company.name,
  footer: 'IT solutions and consulting · Centurion, South Africa',
};

describe('share cards', () => {
  let cacheDir: string;
  beforeAll(() => {
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'share-cards-'));
  });
  afterAll(() => fs.rmSync(cacheDir, { recursive: true, force: true }));

  it('renders a 1200×630 PNG, as its IHDR chunk says', async () => {
    const png = await shareCard(card, { cacheDir: false });
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(pngSize(png)).toEqual({ width: SHARE_CARD.width, height: SHARE_CARD.height });
  });

  it('renders a card once and reads it from the cache afterwards', async () => {
    const first = await shareCard(card, { cacheDir });
    expect(fs.readdirSync(cacheDir)).toHaveLength(1);
    const again = await shareCard(card, { cacheDir });
    expect(again.equals(first)).toBe(true);
    await shareCard({ ...card, title: 'Microsoft SharePoint' }, { cacheDir });
    expect(fs.readdirSync(cacheDir)).toHaveLength(2);
  });

  it('names a card after its page', () => {
    expect(cardSlug('/')).toBe('home');
    expect(cardSlug('/services/enterprise/epm')).toBe('services-enterprise-epm');
    expect(cardSlug('/public-health/MandE-solutions')).toBe('public-health-mande-solutions');
  });

  it('describes a card by the page title and the company, naming the company once', () => {
    expect(shareCardAlt('Microsoft EPM')).toBe(`Microsoft EPM — ${company.name}`);
    expect(shareCardAlt(`${company.name}: IT solutions`)).toBe(`${company.name}: IT solutions`);
  });
});
