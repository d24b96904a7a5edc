import { approachSteps } from '../approach';
import type { StepItem } from '../content-types';

/**
 * The numbered steps of the approach as a process: an ordered list drawn as numbered stations on
 * one line (down the side on phones, across on wide screens). `outline` shows the step names only,
 * for a page that refers to the steps explained elsewhere.
 */
export function ApproachSteps({
  steps = approachSteps,
  outline = false,
}: {
  steps?: readonly StepItem[];
  outline?: boolean;
}) {
  return (
    <ol className={outline ? 'steps steps--outline' : 'steps'}>
      {steps.map((step) => (
        <li className="steps__item" key={step.number}>
          <span className="steps__number" aria-hidden="true">
            {step.number}
          </span>
          <h3 className="steps__title">
            <span className="visually-hidden">Step {step.number}: </span>
            {step.title}
          </h3>
          {!outline && <p>{step.text}</p>}
        </li>
      ))}
    </ol>
  );
}
