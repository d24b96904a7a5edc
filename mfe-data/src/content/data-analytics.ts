import type { ServicePageContent } from '@site/ui';
import { DataAnalyticsArt } from '../art/data-analytics';

export default {
  art: DataAnalyticsArt,
  lead: 'From the pipelines that collect your data to the models that forecast from it: platforms, engineering, data science and analysis that lead to decisions.',
  intro: {
    heading: 'Data that earns its keep',
    paragraphs: [
      'Collecting data is easy; turning it into something a business acts on is not. Our data analytics practice covers the whole way there. We engineer the pipelines and platforms that take in data reliably and at a cost you can predict, we model it so analysts find what they need, and we build the forecasts and analyses that answer the questions your managers are asking.',
      'Every engagement starts from a decision someone needs to make: which customers are likely to leave, when a pump will need maintenance, where a budget is being lost. We work back from that decision to the data, and we only build the platform the answer needs.',
    ],
  },
  pages: {
    heading: 'Data analytics services',
  },
  sections: [
    {
      kind: 'features',
      columns: 3,
      heading: 'How we work with data',
      items: [
        {
          title: 'Questions first',
          text: 'We agree the decisions the data should support before choosing tools, so the platform stays as small as the answers allow.',
        },
        {
          title: 'Quality you can see',
          text: 'Tests on every pipeline and clear lineage mean anyone can see where a number came from and when it last changed.',
        },
        {
          title: 'Costs under control',
          text: 'Storage and compute are sized to real use and reviewed monthly, so a cloud bill never surprises the finance team.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Have a question your data should answer?',
    text: 'Tell us the decision you are trying to make. We will come back with the data it needs and the quickest honest way to get there.',
    action: { to: '/contact', label: 'Talk to a data specialist' },
  },
} satisfies ServicePageContent;
