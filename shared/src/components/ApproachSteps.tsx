import { approachSteps } from '../approach';
import type { StepItem } from '../content-types';

/** The numbered steps of the approach, as an ordered list. */
export function ApproachSteps({ steps = approachSteps }: { steps?: readonly StepItem[] }) {
  return (
    <ol className="steps">
      {steps.map((step) => (
        <li className="steps__item" key={step.number}>
          <span className="steps__number" aria-hidden="true">
            {step.number}
          </span>
          <h3 className="steps__title">
            <span className="visually-hidden">Step {step.number}: </span>
            {step.title}
          </h3>
          <p>{step.text}</p>
        </li>
      ))}
    </ol>
  );
}
