import { company, type ServicePageContent } from '@site/ui';
import { SoftwareDevArt } from '../art/software-dev';

export default {
  art: SoftwareDevArt,
  lead: 'Custom software built around the way your organisation actually works, from the first workshop to a system in production that your people rely on every day.',
  intro: {
    heading: 'When off-the-shelf stops fitting',
    paragraphs: [
      'Packaged software serves the average company. Most of the organisations we work with are not average: a mine with its own shift and safety rules, a bank with a product that no vendor sells, a health programme that reports to three donors in three formats. When the package forces people into workarounds, spreadsheets and re-keying, custom software usually pays for itself.',
      `Since ${company.foundingYear} we have designed and built bespoke systems for plant managers, mine engineers, bank operations teams, school administrators and health programme staff. We write software that does what your business needs, connects to the systems you already run, and can be maintained by your own team or by ours long after launch.`,
    ],
  },
  sections: [
    {
      kind: 'links',
      tone: 'muted',
      heading: 'What we build',
      intro: [
        'Most engagements combine more than one of these. A field-service system, for example, is often a web application for the office, a mobile app for technicians and a cloud backend that ties them together.',
      ],
      items: [
        {
          to: '/services/custom-dev/web-app-dev',
          title: 'Web app development',
          text: 'Portals, dashboards and line-of-business systems that run in any browser, from the interface down to the database.',
        },
        {
          to: '/services/custom-dev/mobile-app-dev',
          title: 'Mobile app development',
          text: 'Native iOS and Android apps, or one cross-platform codebase, for customers, field teams and frontline staff.',
        },
        {
          to: '/services/custom-dev/cloud-app-dev',
          title: 'Cloud app development',
          text: 'Cloud-native applications and migrations on AWS, Azure and Google Cloud, in public, private or hybrid set-ups.',
        },
      ],
    },
    {
      kind: 'features',
      columns: 2,
      heading: 'What you get from an engagement',
      items: [
        {
          title: 'Software you own',
          text: 'Source code, documentation and infrastructure definitions are handed over in your repositories. There is no lock-in to us or to a proprietary platform.',
        },
        {
          title: 'A fixed point of accountability',
          text: 'One delivery lead answers for scope, budget and quality, and reports progress against working software every two weeks, not against slide decks.',
        },
        {
          title: 'Security and compliance built in',
          text: 'Access control, audit trails and data protection that meet POPIA and GDPR are designed in from the start, not bolted on before go-live.',
        },
        {
          title: 'Support after launch',
          text: 'A warranty period follows every release, and we offer ongoing maintenance and enhancement on a monthly retainer if you want it.',
        },
      ],
    },
    {
      kind: 'steps',
      tone: 'muted',
      heading: 'Our six-step approach',
      intro: [
        'Every project, from a three-month pilot to a multi-year platform, moves through the same six steps. Each step ends with something you can review and sign off, so there are no surprises at the end.',
      ],
    },
    {
      kind: 'prose',
      heading: 'How we work with you',
      paragraphs: [
        'We staff each project with a small, stable team: a delivery lead, a business analyst, designers and engineers, and a tester from the first sprint. Work is planned in two-week iterations with a demonstration at the end of each one, and you have access to the backlog, the test environment and the people writing the code.',
        'You can engage us for a fixed-scope project with an agreed price, as a dedicated team billed monthly, or to extend your own developers with specialists for a defined period. We will recommend one model after the concept step, once we both understand the size of the problem.',
      ],
    },
  ],
  cta: {
    heading: 'Have a process that software should be running?',
    text: 'Describe the work that slows your teams down today. We will come back with a first view of the solution, the team it needs and a realistic timeline.',
    action: { to: '/contact', label: 'Discuss your project' },
  },
} satisfies ServicePageContent;
