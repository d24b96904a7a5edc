import type { Paragraphs } from '@site/ui';

/** The services page's words; its groups and pages come from the live deployment manifest. */
export const servicesContent = {
  lead: 'Our practices under one roof, from software, business intelligence and data analytics to enterprise platforms, education technology and public-health monitoring. Start with the one closest to your problem.',
  intro: {
    heading: 'Every practice, every service',
    paragraphs: [
      'Each practice is a team of specialists who own their craft, and all of them work to the same six-step approach, so a project that spans software, data and support still feels like one engagement with one point of contact. Open a practice for an overview of what it does, or go straight to the service you need.',
    ] satisfies Paragraphs,
  },
  cta: {
    heading: 'Not sure which practice you need?',
    text: 'Describe the problem in a few sentences. A consultant will reply within one working day and bring in the right people from across the company.',
    action: { to: '/contact', label: 'Ask a consultant' },
  },
} as const;
