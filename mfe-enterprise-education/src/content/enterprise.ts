import type { ServicePageContent } from '@site/ui';
import { EnterpriseArt } from '../art/enterprise';

export default {
  art: EnterpriseArt,
  lead: 'The Microsoft platforms your teams rely on, set up well and kept running: SharePoint intranets, project portfolio management and managed support.',
  intro: {
    heading: 'Platforms people actually use',
    paragraphs: [
      'Most organisations already pay for Microsoft 365. Far fewer get the value they paid for: SharePoint used as a shared drive, project plans kept in spreadsheets beside an unused portfolio tool, and an IT team too stretched to help anyone adopt what is already licensed. Our enterprise practice closes that gap.',
      'We design and migrate intranets and document libraries, move project portfolios off retiring products onto tools that are supported, and provide a dedicated support team with a two-hour response, so your people get help from consultants who know your set-up rather than from a queue.',
    ],
  },
  pages: {
    heading: 'Enterprise services',
  },
  sections: [
    {
      kind: 'features',
      columns: 3,
      heading: 'What sets our enterprise work apart',
      items: [
        {
          title: 'Adoption, not just installation',
          text: 'Training, guidance and champions in each department, so the tools are used the way they were meant to be.',
        },
        {
          title: 'Governance that fits',
          text: 'Permissions, retention and naming rules sized to your organisation, documented so your administrators can keep them.',
        },
        {
          title: 'One team that knows you',
          text: 'The consultants who build your platform also support it, with fixed monthly billing and no surprise invoices.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Paying for Microsoft 365 but not seeing the value?',
    text: 'Tell us how your teams share documents and run projects today. We will show you what your licences already cover and where to start.',
    action: { to: '/contact', label: 'Book a platform review' },
  },
} satisfies ServicePageContent;
