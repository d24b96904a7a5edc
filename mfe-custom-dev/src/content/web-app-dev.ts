import { company, type ServicePageContent } from '@site/ui';
import { WebAppDevArt } from '../art/web-app-dev';

export default {
  art: WebAppDevArt,
  lead: 'Web applications that your staff, customers and partners use every day, built from the interface down to the database by one team that stays accountable for the whole system.',
  intro: {
    heading: 'Software that runs in the browser and works like a product',
    paragraphs: [
      'A good web application replaces a spreadsheet that has grown too important, a paper process that slows down approvals, or an off-the-shelf package that the business has outgrown. It opens in any modern browser, needs nothing installed, and can be updated for every user at once.',
      `Since ${company.foundingYear} we have built web applications for manufacturers, banks, schools and health programmes, from internal tools used by twenty people to portals used by thousands. Each one was designed around a specific way of working, secured for the data it holds and built to stay maintainable long after launch, whether your own developers take it over or we keep supporting it.`,
    ],
  },
  sections: [
    {
      kind: 'links',
      tone: 'muted',
      heading: 'Three disciplines, one accountable team',
      intro: [
        'Every web application has a face, an engine and connections to the systems around it. We cover all three, so nothing falls between two suppliers.',
      ],
      items: [
        {
          to: '/services/custom-dev/frontend-dev',
          title: 'Frontend development',
          text: 'Fast, accessible interfaces in React, Angular or Vue, built on a design system your team can extend.',
        },
        {
          to: '/services/custom-dev/backend-dev',
          title: 'Backend development',
          text: 'APIs, business logic and data stores that stay fast, secure and observable under real load.',
        },
        {
          to: '/services/custom-dev/integration',
          title: 'Systems integration',
          text: 'Connections to your ERP, CRM, finance and legacy systems, so data is captured once and trusted everywhere.',
        },
      ],
    },
    {
      kind: 'accordion',
      heading: 'Kinds of web applications we build',
      items: [
        {
          title: 'Customer and partner portals',
          body: [
            'Self-service portals where customers track orders, download statements, log service requests or renew policies without phoning a call centre. Dealers, suppliers and agents get their own views, with permissions that match your contracts.',
          ],
        },
        {
          title: 'Internal line-of-business systems',
          body: [
            'Tools for the work that defines your organisation: maintenance planning on a mine, quality records on a production line, loan origination in a bank, or grant management at a non-profit. Built around your approval chains instead of forcing you into someone else’s.',
          ],
        },
        {
          title: 'Dashboards and operational reporting',
          body: [
            'Live views of production, sales, stock or programme indicators, drawing on the systems you already run, with drill-down to the record behind every number and exports for board packs.',
          ],
        },
        {
          title: 'Progressive web apps for the field',
          body: [
            'Browser-based apps that install on a phone, keep working offline and synchronise when a connection returns. A practical choice for field teams in areas with patchy coverage, without the cost of two native apps.',
          ],
        },
        {
          title: 'SaaS products and platforms',
          body: [
            'Multi-tenant products for software companies and start-ups, with subscription billing, tenant isolation, usage metering and an administration console, designed so that the hundredth customer is as easy to onboard as the first.',
          ],
        },
      ],
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'How a web application engagement runs',
      intro: [
        'The same concept-to-deployment approach we use for all custom software, applied to web work. You see working software every two weeks, not a big reveal at the end.',
      ],
      items: [
        {
          title: 'Discovery and scope',
          body: [
            'Two to three weeks of workshops with the people who will use the system. We map the processes, the data and the integrations, and agree what the first release must do. You receive a prioritised backlog, an architecture outline and a costed plan.',
          ],
        },
        {
          title: 'Design and clickable prototype',
          body: [
            'Wireframes become an interactive prototype that users try before any production code is written. Changing a screen at this point costs hours; changing it after launch costs weeks.',
          ],
        },
        {
          title: 'Build in two-week sprints',
          body: [
            'Frontend, backend and integration developers work in one team with a named technical lead. Each sprint ends with a demonstration on a test environment you can log in to.',
          ],
        },
        {
          title: 'Quality checks and security testing',
          body: ['Before any release goes live, it passes:'],
          list: [
            'Automated unit, API and browser tests in the build pipeline',
            'Accessibility checks against WCAG 2.1 AA',
            'Load testing at expected peak volumes',
            'Security testing against the OWASP Top 10',
          ],
        },
        {
          title: 'Deployment and support',
          body: [
            'We deploy through automated pipelines to your cloud or data centre, monitor the first weeks closely and hand over documentation, source code and runbooks. Ongoing support and enhancement is available on a monthly plan.',
          ],
        },
      ],
    },
  ],
  cta: {
    heading: 'Have a process that has outgrown its spreadsheet?',
    text: 'Describe the problem and who it affects. We will suggest a first release you could have in users’ hands within months, with a realistic estimate.',
    action: { to: '/contact', label: 'Discuss your web application' },
  },
} satisfies ServicePageContent;
