import type { StepItem } from './content-types';

/** The company's six-step way of delivering, shown on the home, about and software pages. */
export const approachSteps: readonly StepItem[] = [
  {
    number: '01',
    title: 'Concept',
    text: 'We start with your goals, your users and the constraints you work under, and agree what success looks like before anything is built.',
  },
  {
    number: '02',
    title: 'Plan',
    text: 'Scope, milestones, risks and a team are set out in a plan you can hold us to, with costs and decision points made visible.',
  },
  {
    number: '03',
    title: 'Design',
    text: 'Architecture, data and user experience are designed together and tested with real users early, while change is still cheap.',
  },
  {
    number: '04',
    title: 'Development',
    text: 'We build in short iterations and demonstrate working software every two weeks, so you see progress rather than reports.',
  },
  {
    number: '05',
    title: 'Quality Check',
    text: 'Automated tests, code review, security and accessibility checks run on every change, and your team signs off against agreed criteria.',
  },
  {
    number: '06',
    title: 'Deployment',
    text: 'We release with automated pipelines, monitor what we ship, hand over documentation and stay on to support and improve it.',
  },
];
