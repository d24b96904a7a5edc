import {
  company,
  yearsSinceFounding,
  type FeatureItem,
  type Paragraphs,
  type StatItem,
} from '@site/ui';

const years = yearsSinceFounding();

export const aboutContent = {
  hero: {
    lead: `An IT solutions and consulting company from Centurion, South Africa. Since ${company.foundingYear} we have been building and running technology for organisations at home, elsewhere on the continent and in Europe.`,
  },
  whoWeAre: {
    heading: 'Who we are',
    paragraphs: [
      `We started in ${company.foundingYear} as a small team of developers who believed that businesses deserved software built around their work, not the other way around. Today we are a multidisciplinary company of software engineers, data engineers and scientists, Microsoft specialists, learning technologists and monitoring and evaluation experts.`,
      'Our clients range from start-ups writing their first product to listed manufacturers, mining houses, banks, universities, government departments and international health programmes. We have delivered for organisations in more than 20 industries across Africa and Europe, and we know how to work within the regulation, infrastructure and budgets of each.',
      `The company has been delivering for ${years} years. The people who lead it bring 24 years of industry experience, our senior architects more than 21 years each, and our delivery leads more than 15. That experience shows in the questions we ask at the start of a project and in how few surprises there are at the end.`,
    ] satisfies Paragraphs,
  },
  stats: [
    { value: String(company.foundingYear), label: 'Founded in Centurion' },
    { value: String(years), label: 'Years in business' },
    { value: '20+', label: 'Industries served' },
    { value: '24', label: 'Years of industry experience in our leadership' },
    { value: '21+', label: 'Years of experience in each senior architect' },
    { value: '15+', label: 'Years of experience in each delivery lead' },
  ] satisfies StatItem[],
  vision: {
    heading: 'Vision and focus',
    paragraphs: [
      'Our vision is simple: every organisation we work with should be able to rely on its technology as confidently as it relies on its best people. That means systems that are secure, understandable, affordable to run and ready for the next change.',
      'We focus on a few things and do them thoroughly: custom software, business intelligence and data analytics, the Microsoft enterprise platform, education technology and public-health information systems. Staying focused lets us invest in deep expertise and keep our promises.',
    ] satisfies Paragraphs,
    sectorsIntro: 'The sectors we know best:',
  },
  whyUs: {
    heading: 'Why choose us',
    items: [
      {
        title: 'We stay accountable',
        text: 'One team owns your outcome from workshop to support. You never have to chase three vendors to find out why something broke.',
      },
      {
        title: 'We tell you the truth',
        text: 'If a requirement will cost more than it is worth, or an off-the-shelf product fits better, we say so before you spend the money.',
      },
      {
        title: 'We know your sector',
        text: 'From mine-site process control to donor-funded health programmes, we bring domain knowledge as well as technical skill.',
      },
      {
        title: 'We build to last',
        text: 'Clean architecture, automated tests and documentation mean your systems stay maintainable by us, by you or by anyone you choose.',
      },
      {
        title: 'We work where you are',
        text: 'From South Africa we share a working day with clients across Africa and most of Europe, and we come on site when it matters.',
      },
      {
        title: 'We protect your data',
        text: 'POPIA and GDPR obligations, least-privilege access and encrypted storage are designed in from the first sprint.',
      },
    ] satisfies FeatureItem[],
  },
  skills: {
    heading: 'Where our strengths lie',
    intro: [
      'How our teams rate their depth in each practice, based on delivered projects, certifications and client feedback.',
    ] satisfies Paragraphs,
    items: [
      { label: 'Custom Development', value: 98 },
      { label: 'BI', value: 96 },
      { label: 'Data Analytics', value: 92 },
      { label: 'Enterprise', value: 94 },
      { label: 'Education', value: 93 },
      { label: 'Public Health', value: 89 },
    ],
  },
  approach: {
    heading: 'Our approach',
    intro: [
      'Whatever we build, we follow the same six steps, from concept to deployment, so you can plan, budget and decide with confidence.',
    ] satisfies Paragraphs,
    more: { to: '/#approach', label: 'What happens in each step' },
  },
  cta: {
    heading: 'Work with a team that stays',
    text: 'Describe the problem you want solved in a few lines. We will come back within one working day with questions, not a sales pitch.',
    action: { to: '/contact', label: 'Contact us' },
  },
} as const;
