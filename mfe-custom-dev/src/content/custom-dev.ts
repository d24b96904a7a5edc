import type { ServicePageContent } from '@site/ui';
import { CustomDevArt } from '../art/custom-dev';

export default {
  art: CustomDevArt,
  lead: 'Software designed around the way your organisation works: web and mobile applications, cloud platforms and the integrations that join them to the systems you already run.',
  intro: {
    heading: 'One team from the first sketch to years of support',
    paragraphs: [
      'Our custom development practice builds the systems that packaged software does not cover: the scheduling tool shaped around a mine’s shift rules, the branch application for a bank’s own products, the field app that works where the mobile signal does not. Each starts with workshops that pin down the problem, the users and the figures that will show the system works.',
      'The same people then design, build, test and support what we agreed. You see working software every two weeks, the code and documentation live in your repositories from the first day, and after launch we keep the system secure and up to date on terms written into the agreement.',
    ],
  },
  pages: {
    heading: 'What we build',
    intro: [
      'Most projects combine several of these: a web application for the office, a mobile app for the field and a cloud backend that ties both to your ERP.',
    ],
  },
  sections: [
    {
      kind: 'features',
      columns: 3,
      heading: 'Why clients choose us to build',
      items: [
        {
          title: 'Senior people throughout',
          text: 'The consultants who scope the work stay on it, and most of our engineers have built systems in your sector before.',
        },
        {
          title: 'No lock-in',
          text: 'You own the code, the data and the infrastructure definitions. Your own team or another partner can carry the work on.',
        },
        {
          title: 'Secure and accessible',
          text: 'Security reviews, privacy by design and accessibility testing are part of every release rather than a task at the end.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Have a process that software should be running?',
    text: 'Tell us where your teams lose time today. We will reply within one working day with a first view of the solution and what it would take.',
    action: { to: '/contact', label: 'Discuss your project' },
  },
} satisfies ServicePageContent;
