import { company, type FeatureItem, type LinkCardItem, type Paragraphs } from '@site/ui';
import { SHELL_PAGES } from '@site/contracts/site';

export const homeContent = {
  hero: {
    eyebrow: `IT solutions and consulting since ${company.foundingYear}`,
    title: 'Technology that works as hard as your business does',
    lead: 'We design, build and support software, data platforms and digital services for organisations across Africa and Europe, from the first workshop to years of dependable operation.',
    actions: [
      { to: '/contact', label: 'Start a conversation' },
      { to: SHELL_PAGES.services, label: 'Our services' },
    ],
  },
  intro: {
    eyebrow: 'Who we work with',
    heading: 'One partner for the systems your organisation runs on',
    paragraphs: [
      `Founded in Centurion in ${company.foundingYear}, we are a team of engineers, data specialists and consultants who work alongside in-house IT departments, operations leaders and programme managers. Some clients come for one application; many stay for a decade, because we keep what we build running, secure and improving.`,
      'We serve more than 20 industries, among them manufacturing, mining, education, health, banking, petroleum, the non-profit sector and the motor industry, so we have usually solved a problem like yours before and can tell you plainly what it will take.',
    ] satisfies Paragraphs,
  },
  services: {
    eyebrow: 'What we do',
    heading: 'Services built around your outcomes',
    intro: [
      'Every practice, one delivery standard. Each team owns its craft and works to the same approach, so a project that spans software, data and support still feels like one engagement.',
    ] satisfies Paragraphs,
    items: [
      {
        to: '/services/custom-dev',
        title: 'Custom Development',
        text: 'Web, mobile and cloud apps built around how you work.',
      },
      {
        to: '/services/business-intelligence',
        title: 'Business Intelligence',
        text: 'Dashboards and reports with one trusted set of numbers.',
      },
      {
        to: '/services/data-analytics',
        title: 'Data Analytics',
        text: 'Pipelines, platforms and models that turn records into forecasts.',
      },
      {
        to: '/services/enterprise',
        title: 'Enterprise Services',
        text: 'SharePoint, project portfolios and managed support.',
      },
      {
        to: '/services/education',
        title: 'Education',
        text: 'Learning platforms and interactive e-learning.',
      },
      {
        to: '/public-health',
        title: 'Public Health',
        text: 'M&E software, field tools and donor reporting.',
      },
    ] satisfies LinkCardItem[],
  },
  solutions: {
    eyebrow: 'Custom solutions',
    heading: 'Built for you, not adapted from a template',
    intro: [
      'Off-the-shelf software fits the average organisation. Custom solutions fit yours: your processes, your compliance obligations, your users and the systems you cannot switch off.',
    ] satisfies Paragraphs,
    items: [
      {
        title: 'Discovery before code',
        text: 'Short workshops pin down the real problem, the users and the numbers that prove success.',
      },
      {
        title: 'Senior people on your project',
        text: 'The consultants who scope your work stay on it, and most have built for your sector before.',
      },
      {
        title: 'Secure and accessible by default',
        text: 'Security reviews, privacy by design and accessibility testing in every release.',
      },
      {
        title: 'Fixed scope or dedicated team',
        text: 'A fixed price for a well-defined need, or a team that grows with your roadmap.',
      },
      {
        title: 'Integration with what you have',
        text: 'ERP, CRM and finance systems joined by documented APIs, not manual exports.',
      },
      {
        title: 'Support that stays',
        text: 'After launch we monitor, maintain and improve it, with response times in writing.',
      },
    ] satisfies FeatureItem[],
  },
  approach: {
    eyebrow: 'Our approach',
    heading: 'Six steps from idea to dependable service',
    intro: [
      'Every engagement follows the same six steps. You always know where the work stands, what comes next and what you are being asked to decide.',
    ] satisfies Paragraphs,
  },
  /** The track record, beside the intro. */
  figures: {
    founded: 'Founded in Centurion',
    years: 'Years delivering IT',
    industries: { value: '20+', label: 'Industries served' },
    regions: { value: '2', label: 'Continents served' },
  },
  technologies: {
    eyebrow: 'Technology',
    heading: 'Technologies we work with every day',
    intro: [
      'We choose tools for the job and for the team that will maintain them after us, not for novelty.',
    ] satisfies Paragraphs,
    items: [
      'React',
      'Angular',
      'TypeScript',
      '.NET',
      'Node.js',
      'Java',
      'Python',
      'Kotlin',
      'Swift',
      'Flutter',
      'Microsoft Azure',
      'AWS',
      'Google Cloud',
      'SharePoint',
      'Power BI',
      'PostgreSQL',
      'SQL Server',
      'Apache Spark',
    ],
  },
} as const;
