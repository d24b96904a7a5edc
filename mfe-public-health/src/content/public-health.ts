import type { ServicePageContent } from '@site/ui';
import { PublicHealthArt } from '../art/public-health';

export default {
  art: PublicHealthArt,
  lead: 'Monitoring and evaluation for health programmes: software to track indicators, digital tools that replace paper in the field, and reporting donors trust.',
  intro: {
    heading: 'Evidence a programme can act on',
    paragraphs: [
      'Health programmes live and die by their data. Funders ask for indicators each quarter, district teams need to know which clinics are falling behind this month, and field staff spend hours copying paper registers into spreadsheets that nobody fully trusts. Our public-health practice builds the systems that make that data timely, complete and believable.',
      'We work with non-profits, health departments and implementing partners on the whole monitoring and evaluation cycle: planning the indicators, collecting data on phones and tablets that work offline, checking and aggregating it, and reporting it in the formats each donor requires, with dashboards that show programme managers where to act next.',
    ],
  },
  pages: {
    heading: 'Public-health services',
  },
  sections: [
    {
      kind: 'features',
      columns: 3,
      heading: 'Why programmes work with us',
      items: [
        {
          title: 'Field-tested tools',
          text: 'Forms and apps tried with data collectors before roll-out, in the languages and on the devices they actually use.',
        },
        {
          title: 'Data protected',
          text: 'Patient and participant data handled under POPIA and GDPR, with access limited to those who need it.',
        },
        {
          title: 'Reports on time',
          text: 'Donor templates filled from the same checked data every quarter, so reporting takes hours rather than weeks.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Still reporting from paper registers?',
    text: 'Tell us about your programme and the reports it owes. We will suggest where digital tools would save the most time first.',
    action: { to: '/contact', label: 'Talk to our M&E team' },
  },
} satisfies ServicePageContent;
