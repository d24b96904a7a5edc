import { company, type ServicePageContent } from '@site/ui';
import { FrontendDevArt } from '../art/frontend-dev';

export default {
  art: FrontendDevArt,
  lead: 'The interface is the part of your software people judge you by. We build frontends that load quickly on modest phones, work for users with disabilities and stay consistent as your product grows.',
  intro: {
    heading: 'Interfaces built for the people who use them',
    paragraphs: [
      'A frontend has to serve a loan officer working through forty applications a day, a clinic nurse on a low-cost Android phone and a customer on a slow connection at the end of the month. We design and build for all of them: clear layouts, forms that catch mistakes before they are submitted, and pages that respond in well under a second.',
      `Our frontend team has delivered more than 420 frontend solutions since ${company.foundingYear}, from single-page booking tools to the operator consoles of large industrial systems. That experience shows in the details that are easy to miss in a demo and hard to fix after launch: keyboard navigation, error states, loading behaviour, and components that do not drift apart when three teams work on one product.`,
    ],
  },
  sections: [
    {
      kind: 'stats',
      tone: 'dark',
      heading: 'Frontend work in numbers',
      items: [
        { value: '420+', label: 'Frontend solutions delivered' },
        { value: '20+', label: 'Industries served' },
        { value: '15+', label: 'Years of experience in each of our frontend leads' },
      ],
    },
    {
      kind: 'counters',
      heading: 'Four phases from brief to browser',
      intro: [
        'Every frontend engagement moves through the same four phases, so you always know where the work stands and what comes next.',
      ],
      items: [
        { target: 1, pad: 2, label: 'Discovery and UX audit of your users and current screens' },
        { target: 2, pad: 2, label: 'Design system and clickable prototype tested with users' },
        { target: 3, pad: 2, label: 'Component build, connected to your APIs' },
        { target: 4, pad: 2, label: 'Accessibility, performance tuning and release' },
      ],
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'What we build',
      items: [
        {
          title: 'Web applications and single-page apps',
          body: [
            'Complex, data-heavy interfaces such as workflow tools, trading and claims screens, and administration consoles, with state management that keeps large forms and tables fast.',
          ],
        },
        {
          title: 'Design systems and component libraries',
          body: [
            'A shared library of documented, tested components, with design tokens for colour, spacing and type, so every product your organisation ships looks and behaves the same. We publish it in Storybook for designers and developers alike.',
          ],
        },
        {
          title: 'Dashboards and data visualisation',
          body: [
            'Charts, maps and tables that make operational data readable at a glance, from production output on a plant floor to indicator trends in a health programme.',
          ],
        },
        {
          title: 'Modernising legacy interfaces',
          body: [
            'Step-by-step replacement of ageing Web Forms, JSP or jQuery screens with a modern framework, one module at a time, while the old system keeps running and users are trained as each part goes live.',
          ],
        },
      ],
    },
    {
      kind: 'accordion',
      heading: 'Technologies and standards',
      items: [
        {
          title: 'Frameworks and languages',
          body: [
            'We choose the framework that suits your team and product, and write it in TypeScript.',
          ],
          list: [
            'React and Next.js',
            'Angular',
            'Vue and Nuxt',
            'TypeScript, HTML and modern CSS',
            'Progressive web apps with offline support',
          ],
        },
        {
          title: 'Accessibility',
          body: [
            'We build to WCAG 2.1 AA: semantic markup, full keyboard support, visible focus, sufficient contrast and screen-reader testing with NVDA and VoiceOver. Accessibility is part of every sprint, not an audit at the end.',
          ],
        },
        {
          title: 'Performance and quality',
          body: [
            'Each build is measured against Core Web Vitals budgets and tested on mid-range Android devices over throttled networks. Unit tests, component tests and end-to-end tests with Playwright run in the pipeline before anything reaches users.',
          ],
        },
      ],
    },
  ],
  cta: {
    heading: 'Is your interface holding your product back?',
    text: 'Send us a link or a few screenshots. We will come back with a short, candid review of what to fix first.',
    action: { to: '/contact', label: 'Request a frontend review' },
  },
} satisfies ServicePageContent;
