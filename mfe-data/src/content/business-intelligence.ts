import type { ServicePageContent } from '@site/ui';
import { BusinessIntelligenceArt } from '../art/business-intelligence';

export default {
  art: BusinessIntelligenceArt,
  lead: 'Dashboards and reports that management teams and plant operators trust, built on data that is gathered, checked and explained in one place.',
  intro: {
    heading: 'One version of the numbers',
    paragraphs: [
      'Most organisations already hold the data they need to run well. It is spread across an ERP, a CRM, historians on the plant floor and a great many spreadsheets, and each meeting starts with an argument about whose figure is right. Business intelligence settles that argument: one model of the business, one definition of each measure, and reports that everyone reads the same way.',
      'We work in two settings. For management teams we build the dashboards and reporting that track sales, margins, cash and people. For plants, mines and processing sites we bring live process data, alarms and quality results into one view, so shift supervisors can act during the shift rather than read about it the following morning.',
    ],
  },
  pages: {
    heading: 'Business intelligence services',
  },
  sections: [
    {
      kind: 'checks',
      columns: 2,
      heading: 'What every BI engagement includes',
      intro: [
        'Whether the first dashboard is for a board pack or a control room, the groundwork is the same, and it is what keeps the numbers trusted long after launch.',
      ],
      items: [
        'Workshops that agree each measure and who owns it',
        'Data models documented in plain language',
        'Automated refreshes with checks that flag bad data',
        'Dashboards tested with the people who will use them',
        'Row-level security so each user sees their own figures',
        'Training and a handover your analysts can maintain',
      ],
    },
  ],
  cta: {
    heading: 'Still arguing about whose figure is right?',
    text: 'Show us the reports your managers use today. We will suggest the first dashboard worth building and the data it would need.',
    action: { to: '/contact', label: 'Talk to a BI consultant' },
  },
} satisfies ServicePageContent;
