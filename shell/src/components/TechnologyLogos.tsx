import marks from '../content/technology-marks.json';

/** The URL of the marks' sprite, fixed at build time (shell/webpack/tech-marks.cjs). */
declare const __TECH_MARKS__: string | undefined;
const SPRITE = typeof __TECH_MARKS__ === 'string' ? __TECH_MARKS__ : '/assets/tech-marks.svg';

/**
 * Marks by technology name: Simple Icons slugs, drawn from one sprite made at build time, so the
 * page's JavaScript carries a dozen names rather than a dozen paths. Technologies whose owners asked
 * for their marks to be withdrawn from the set (Microsoft's products, Amazon Web Services, Oracle's
 * Java) are shown as a wordmark instead: their name, set in type, never a made-up symbol.
 */
export const TECHNOLOGY_MARKS: Readonly<Record<string, string>> = marks;

/**
 * A wall of technology marks. Each mark is drawn in one colour, as every brand's guidelines
 * allow, and named for assistive technology; the caption beside it is for sighted readers only, so
 * a screen reader announces each technology once.
 */
export function TechnologyLogos({ names }: { names: readonly string[] }) {
  return (
    <>
      <ul className="tech-grid">
        {names.map((name) => {
          const mark = TECHNOLOGY_MARKS[name];
          return (
            <li className="tech" key={name}>
              {mark ? (
                <>
                  <svg
                    className="tech__mark"
                    viewBox="0 0 24 24"
                    width="28"
                    height="28"
                    role="img"
                    aria-label={name}
                    focusable="false"
                  >
                    <use href={`${SPRITE}#${mark}`} fill="currentColor" />
                  </svg>
                  <span aria-hidden="true">{name}</span>
                </>
              ) : (
                <span className="tech__wordmark" role="img" aria-label={name}>
                  {name}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <p className="tech-credits">
        Product names and marks belong to their owners. Marks from Simple Icons; the Angular mark is
        used under CC BY 4.0 and the Apache Spark mark under the Apache License 2.0.
      </p>
    </>
  );
}
