import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Accordion } from '../components/Accordion';

const items = [
  { title: 'Discovery', body: ['We learn how you work.'] },
  { title: 'Delivery', body: ['We ship in short iterations.'], list: ['Demos every two weeks'] },
  { title: 'Support', body: ['We stay after launch.'] },
];

describe('Accordion', () => {
  it('opens the first panel initially and only that one', () => {
    render(<Accordion items={items} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-expanded'))).toEqual(['true', 'false', 'false']);
    expect(screen.getByRole('region', { name: 'Discovery' })).toBeVisible();
    expect(screen.getByText('We ship in short iterations.')).not.toBeVisible();
  });

  it('keeps one panel open at a time: opening one closes the other', async () => {
    const user = userEvent.setup();
    render(<Accordion items={items} />);
    await user.click(screen.getByRole('button', { name: 'Delivery' }));
    expect(screen.getByRole('button', { name: 'Delivery' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Discovery' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(screen.getByText('Demos every two weeks')).toBeVisible();
    expect(screen.getByText('We learn how you work.')).not.toBeVisible();
  });

  it('closes the open panel when its header is pressed again', async () => {
    const user = userEvent.setup();
    render(<Accordion items={items} />);
    await user.click(screen.getByRole('button', { name: 'Discovery' }));
    expect(
      screen.getAllByRole('button').every((b) => b.getAttribute('aria-expanded') === 'false'),
    ).toBe(true);
  });

  it('follows the WAI-ARIA pattern: buttons inside headings, controlling labelled regions', () => {
    render(<Accordion items={items} headingLevel={3} />);
    const headings = screen.getAllByRole('heading', { level: 3 });
    expect(headings).toHaveLength(3);
    const button = screen.getByRole('button', { name: 'Discovery' });
    const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(panel).toHaveAttribute('role', 'region');
    expect(panel).toHaveAttribute('aria-labelledby', button.id);
  });

  it('moves focus between headers with the arrow keys, Home and End, and toggles with Enter and Space', async () => {
    const user = userEvent.setup();
    render(<Accordion items={items} />);
    const [first, second, third] = screen.getAllByRole('button');
    first!.focus();
    await user.keyboard('{ArrowDown}');
    expect(second).toHaveFocus();
    await user.keyboard('{End}');
    expect(third).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(first).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(third).toHaveFocus();
    await user.keyboard('{Home}');
    expect(first).toHaveFocus();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(second).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowDown} ');
    expect(third).toHaveAttribute('aria-expanded', 'true');
    expect(second).toHaveAttribute('aria-expanded', 'false');
  });
});
