import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { AccordionItemData } from '../content-types';
import { Prose } from './Prose';

export interface AccordionProps {
  items: readonly AccordionItemData[];
  /** Heading level of the panel titles; 3 inside a section with an `h2`. */
  headingLevel?: 2 | 3 | 4;
}

/**
 * The WAI-ARIA accordion pattern: each header is a button inside a heading, with aria-expanded and
 * aria-controls; panels are labelled regions. One panel is open at a time and the first starts
 * open. Closed panels stay in the document (hidden), so their text is in the prerendered HTML.
 * Up/Down move between headers, Home/End go to the first/last.
 */
export function Accordion({ items, headingLevel = 3 }: AccordionProps) {
  const [open, setOpen] = useState<number | null>(items.length > 0 ? 0 : null);
  const baseId = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const Heading = `h${headingLevel}` as 'h3';

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    const target =
      event.key === 'ArrowDown'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowUp'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    buttons.current[target]?.focus();
  };

  return (
    <div className="accordion">
      {items.map((item, index) => {
        const expanded = open === index;
        const buttonId = `${baseId}-button-${index}`;
        const panelId = `${baseId}-panel-${index}`;
        return (
          <div
            className={expanded ? 'accordion__item is-open' : 'accordion__item'}
            key={item.title}
          >
            <Heading className="accordion__heading">
              <button
                ref={(el) => {
                  buttons.current[index] = el;
                }}
                type="button"
                id={buttonId}
                className="accordion__button"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen(expanded ? null : index)}
                onKeyDown={(e) => onKeyDown(e, index)}
              >
                <span>{item.title}</span>
                <svg
                  className="accordion__icon"
                  viewBox="0 0 16 16"
                  aria-hidden="true"
                  focusable="false"
                >
                  <path d="M3 6l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
                </svg>
              </button>
            </Heading>
            <div
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              className="accordion__panel"
              hidden={!expanded}
            >
              <Prose paragraphs={item.body} />
              {item.list && item.list.length > 0 && (
                <ul className="check-list">
                  {item.list.map((entry) => (
                    <li key={entry}>{entry}</li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        );
      })}
    </div>
  );
}
