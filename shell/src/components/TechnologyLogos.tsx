import marks from '../content/technology-marks.json';

/** The URL of the marks' sprite, fixed at build time (shell/webpack/tech-marks.cjs). */
declare const __TECH_MARKS__: string | undefined;
const SPRITE = typeof __TECH_MARKS__ === 'string' ? __TECH_MARKS__ : '/assets/tech-marks.svg';

/**
 * Marks by technology name: Simple Icons slugs, drawn from one sprite made at build time, so the
 * page's JavaScript carries a dozen names rather than a dozen paths. Technologies whose owners asked
 * for their marks to be withdrawn from the set (Microsoft's products, Amazon Web Services, Oracle's
 * Java) are set as wordmarks instead: the product's name in our own type, which is how their
 * guidelines let others name them, never initials in a tile and never an imitation of their symbol.
 * So is a technology whose mark is only its name in lettering (.NET's): over the same name it
 * would read twice.
 */
export const TECHNOLOGY_MARKS: Readonly<Record<string, string>> = marks;

/**
 * A wall of technology marks, one tile each: the mark over the name, or the name alone as a
 * wordmark. Marks are drawn in one colour, as every brand's guidelines allow. The name is the
 * tile's text, so a screen reader announces each technology once; a mark beside it is decoration.
 */
export function TechnologyLogos({ names }: { names: readonly string[] }) {
  const wordmarks = names.filter((name) => !TECHNOLOGY_MARKS[name]);
  return (
    <>
      <ul className="tech-grid">
        {names.map((name) => {
          const mark = TECHNOLOGY_MARKS[name];
          return mark ? (
            <li className="tech" key={name}>
              <svg
                className="tech__mark"
                viewBox="0 0 24 24"
                width="36"
                height="36"
                aria-hidden="true"
                focusable="false"
              >
                <use href={`${SPRITE}#${mark}`} fill="currentColor" />
              </svg>
              <span className="tech__name">{name}</span>
            </li>
          ) : (
            <li className="tech tech--wordmark" key={name}>
              <span className="tech__wordmark">{name}</span>
            </li>
          );
        })}
      </ul>
      <p className="tech-credits">
        Product names and marks belong to their owners. Marks from Simple Icons; the Angular mark is
        used under CC BY 4.0 and the Apache Spark mark under the Apache License 2.0.
        {wordmarks.length > 0 &&
          ` ${listOf(wordmarks)} ${wordmarks.length > 1 ? 'are' : 'is'} named in our own type.`}
      </p>
    </>
  );
}

/** Names as a sentence's list: "A", "A and B", "A, B and C". */
function listOf(names: readonly string[]): string {
  return names.length > 1
    ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
    : (names[0] ?? '');
}
