import { countWords } from '../text';
import { company, yearsSinceFounding } from '../company';

describe('countWords', () => {
  it('counts words in nested content, skipping link targets and symbols', () => {
    expect(
      countWords({
        lead: 'Two words',
        items: [{ to: '/a/b', title: 'Three more words' }],
        dash: '—',
      }),
    ).toBe(5);
  });
});

describe('company facts', () => {
  it('computes the years since founding from the given date', () => {
    expect(company.foundingYear).toBe(2008);
    expect(yearsSinceFounding(new Date('2026-06-01'))).toBe(18);
    expect(yearsSinceFounding(new Date('2031-01-01'))).toBe(23);
  });
});
