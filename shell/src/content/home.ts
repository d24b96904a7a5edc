import { company, type FeatureItem, type LinkCardItem, type Paragraphs } from '@site/ui';

export const homeContent = {
  hero: {
    eyebrow: `IT solutions and consulting since ${company.foundingYear}`,
    title: 'Technology that works as hard as your business does',
    lead: 'We design, build and support software, data platforms and digital services for organisations across Africa and Europe, from the first workshop to years of dependable operation.',
    actions: [
      { to: '/contact', label: 'Start a conversation' },
      { to: '/#services', label: 'Explore our services' },
    ],
  },
  intro: {
    eyebrow: 'Who we work with',
    heading: 'One partner for the systems your organisation runs on',
    paragraphs: [
      `Founded in Centurion in ${company.foundingYear}, we have grown into a team of engineers, data specialists and consultants who work alongside in-house IT departments, operations leaders and programme managers. Some clients come to us for a single application; many stay for a decade because we keep what we build running, secure and improving.`,
      'We serve more than 20 industries, with deep experience in manufacturing, mining, education, health, banking, petroleum, the non-profit sector and the motor industry. That breadth means we have usually solved a problem like yours before, and we can tell you plainly what it will take.',
    ] satisfies Paragraphs,
  },
  services: {
    eyebrow: 'What we do',
    heading: 'Services built around your outcomes',
    intro: [
      'Six practices, one delivery standard. Each team owns its craft and works to the same approach, so a project that spans software, data and support still feels like one engagement.',
    ] satisfies Paragraphs,
    items: [
      {
        to: '/services/custom-dev/software-dev',
        title: 'Custom Development',
        text: 'Web, mobile and cloud applications designed around how your people actually work, and integrated with the systems you already have.',
      },
      {
        to: '/services/business-intelligence/bi',
        title: 'Business Intelligence',
        text: 'Dashboards and reporting that give managers and plant operators one trusted version of the numbers.',
      },
      {
        to: '/services/data-analytics/big-data',
        title: 'Data Analytics',
        text: 'Data engineering, big data platforms and data science that turn raw records into forecasts and decisions.',
      },
      {
        to: '/services/enterprise/sharepoint',
        title: 'Enterprise Services',
        text: 'SharePoint, enterprise project management and managed support for the Microsoft platforms your teams rely on.',
      },
      {
        to: '/services/education/lms',
        title: 'Education',
        text: 'Learning management systems and interactive e-learning for schools, training providers and non-profits.',
      },
      {
        to: '/public-health/MandE-solutions',
        title: 'Public Health',
        text: 'Monitoring and evaluation software, digital data collection tools and reporting for health programmes.',
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
        text: 'Short, structured workshops establish the real problem, the users and the numbers that will prove the solution works.',
      },
      {
        title: 'Senior people on your project',
        text: 'The consultants who scope your work stay on it. Most of our engineers have shipped systems in your sector before.',
      },
      {
        title: 'Secure and accessible by default',
        text: 'Security reviews, privacy by design and accessibility testing are part of every release, not an extra at the end.',
      },
      {
        title: 'Fixed scope or dedicated team',
        text: 'Choose a fixed-price project for a well-defined need, or a dedicated team that grows with your roadmap.',
      },
      {
        title: 'Integration with what you have',
        text: 'ERP, CRM, finance and line-of-business systems connected through documented APIs rather than manual exports.',
      },
      {
        title: 'Support that stays',
        text: 'After launch we monitor, maintain and improve what we build, with response times written into the agreement.',
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
  figures: {
    eyebrow: 'Track record',
    heading: 'Experience you can count on',
    founded: 'The year we opened our doors in Centurion',
    years: 'Years of delivering IT solutions',
    industries: { value: '20+', label: 'Industries served' },
    regions: { value: '2', label: 'Continents: Africa and Europe' },
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
