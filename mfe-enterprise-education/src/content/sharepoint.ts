import type { ServicePageContent } from '@site/ui';
import { SharepointArt } from '../art/sharepoint';

export default {
  art: SharepointArt,
  lead: 'SharePoint is already part of most Microsoft 365 licences, yet many organisations use it as little more than a shared drive. We turn it into the place where your people find news, policies and documents, and where routine approvals run on their own.',
  intro: {
    heading: 'SharePoint that people actually use',
    paragraphs: [
      'A typical request starts with a familiar picture: thousands of files on network shares and in personal OneDrive folders, three versions of the same policy in circulation, approvals chased by e-mail, and an intranet that nobody has updated since it was launched. The licences are paid for; the value is not arriving.',
      'We design, build and migrate SharePoint solutions for organisations whose documents carry real weight: safety procedures on a mine, credit policies in a bank, clinical guidelines in a health programme. Our consultants have worked on every version from SharePoint 2010 on-premises to SharePoint Online, so we can modernise an old farm as comfortably as we can set up a new Microsoft 365 tenant.',
    ],
  },
  sections: [
    {
      kind: 'split',
      tone: 'dark',
      heading: 'Experience you can start using next week',
      start: {
        kind: 'prose',
        paragraphs: [
          'Our SharePoint practice goes back to the on-premises farms of the early 2010s. That history matters when you inherit a farm full of custom code, or need to explain to an auditor why a permission was set the way it was.',
          'Once the scope is agreed, a named consultant runs your kick-off workshop within a week. There is no long pre-sales cycle and no waiting for a team to become free.',
        ],
      },
      end: {
        kind: 'stats',
        items: [
          { value: '14+', label: 'Years of hands-on SharePoint work' },
          { value: '1 week', label: 'From signed scope to your kick-off workshop' },
        ],
      },
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'What we deliver on SharePoint',
      intro: [
        'Most engagements combine several of these. We usually start with the one that removes the most daily friction, then build on it.',
      ],
      items: [
        {
          title: 'Intranets and communication sites',
          body: [
            'A modern intranet built on SharePoint communication sites, connected to Microsoft Teams and Viva Connections, so staff see company news, policies and forms where they already work. We set up the site structure, navigation, news publishing and audience targeting, and train the people who will keep it current.',
          ],
        },
        {
          title: 'Document management',
          body: [
            'Libraries, content types and metadata designed around how your teams file and search for documents, with version history, check-in and check-out, and retention labels for records you are required to keep.',
          ],
          list: [
            'Controlled documents such as SOPs, safety procedures and policies',
            'Contract and tender libraries with review dates',
            'Board and committee packs with restricted access',
          ],
        },
        {
          title: 'Workflows with Power Automate',
          body: [
            'Leave requests, purchase approvals, document reviews and onboarding checklists automated with Power Automate and, where a form is needed, Power Apps. Every step is logged, so you can see where a request is waiting and who approved it. If your approvals still depended on SharePoint 2010 or 2013 workflows, they stopped when Microsoft switched those engines off in SharePoint Online, the 2013 ones in April 2026; we rebuild them as Power Automate flows, usually with a clearer process than the original.',
          ],
        },
        {
          title: 'Migrations',
          body: [
            'Moves from file shares, older SharePoint Server farms, Google Drive and other document systems to SharePoint Online. We inventory the source, clean up duplicates and stale content, map permissions and metadata, and migrate in planned waves with the SharePoint Migration Tool or ShareGate, so users lose neither files nor working days.',
          ],
        },
        {
          title: 'SharePoint Online and Microsoft 365',
          body: [
            'SharePoint works best alongside the rest of Microsoft 365. We configure Teams-connected sites, OneDrive, external sharing and Microsoft Search, and build SharePoint Framework (SPFx) web parts when an out-of-the-box component does not fit your process.',
          ],
        },
        {
          title: 'Governance',
          body: [
            'Clear rules for who may create sites, how they are named, who owns them and when they are archived, backed by sensitivity labels, retention policies and regular permission reviews. Governance keeps a tenant tidy as it grows and gives your compliance team the evidence it needs.',
          ],
        },
      ],
    },
    {
      kind: 'accordion',
      heading: 'How a SharePoint engagement runs',
      items: [
        {
          title: 'Kick-off and discovery',
          body: [
            'In the first week we meet the people who own the content and the processes, review your tenant or farm, and agree the priorities, success measures and a realistic timeline.',
          ],
        },
        {
          title: 'Design and build',
          body: [
            'We design the information architecture and permissions with your team, then build in short iterations, showing working sites every one or two weeks rather than a document at the end.',
          ],
        },
        {
          title: 'Adoption and handover',
          body: [
            'Site owners receive hands-on training and short guides, champions are appointed in each department, and your IT team receives the configuration records they need to run the platform on their own.',
          ],
        },
      ],
    },
    {
      kind: 'links',
      tone: 'muted',
      heading: 'Related enterprise services',
      items: [
        {
          to: '/services/enterprise/epm',
          title: 'Microsoft EPM',
          text: 'Moving off Project Online or an old Project Server farm, with project sites that stay linked to SharePoint.',
        },
        {
          to: '/services/enterprise/enterprise-support',
          title: 'Enterprise Support',
          text: 'Keep a dedicated team on hand after go-live, with a 2-hour response and fixed monthly billing.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Ready to get more from SharePoint?',
    text: 'Whether it is an intranet, a document clean-up or a workflow rebuild, a short call is enough for us to propose a scope, and your kick-off can be in the diary within a week.',
    action: { to: '/contact', label: 'Book a SharePoint kick-off' },
  },
} satisfies ServicePageContent;
