import { company, type ServicePageContent } from '@site/ui';
import { EnterpriseSupportArt } from '../art/enterprise-support';

export default {
  art: EnterpriseSupportArt,
  lead: 'Business systems need more than a help-desk ticket queue. Enterprise Support gives you a dedicated team that knows your environment, answers within two hours and is billed at a fixed monthly amount you can plan around.',
  intro: {
    heading: 'Managed support from people who know your systems',
    paragraphs: [
      'Once a SharePoint intranet, an EPM platform, a custom application or a set of Power BI reports goes live, the real work begins: users have questions, processes change, Microsoft releases updates and small faults need fixing before they become outages. Ad hoc support handles this one call at a time, with a new person each time and a 4-hour response under our standard support SLA.',
      'Enterprise Support is the alternative for organisations that depend on these systems every day. You reserve a block of hours each month, a named team learns your environment in depth, and the 4-hour standard response is cut to 2 hours. We cover the platforms and solutions we build, including Microsoft 365, SharePoint, Planner and Project Server, and the custom applications and integrations around them.',
    ],
  },
  sections: [
    {
      kind: 'stats',
      tone: 'dark',
      heading: 'The terms at a glance',
      intro: [
        'Plans start at 40 hours a month and are billed monthly at a fixed amount. Extended availability is included at no extra cost, and 24/7 support is available on request for critical systems.',
      ],
      items: [
        { value: '2 hours', label: 'Response time, down from our standard 4-hour SLA' },
        {
          value: '10 hours',
          label: `Of cover a day, 8 AM to 6 PM ${company.timeZone.label}, at no extra cost`,
        },
        { value: '40 hours', label: 'A month, the starting size of a plan' },
      ],
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'Benefits of Enterprise Support',
      items: [
        {
          title: 'Dedicated resource',
          body: [
            'A named consultant, backed by a small team, is assigned to your account. They learn your configuration, your business processes and your key users, so nobody has to explain the background again with every request.',
          ],
        },
        {
          title: 'Extended availability',
          body: [
            `Your team is available from 8 AM to 6 PM ${company.timeZone.abbreviation}, beyond normal office hours, at no extra cost. For systems that must never stop, such as plant reporting or payment integrations, 24/7 support can be arranged on request.`,
          ],
        },
        {
          title: 'Faster response',
          body: [
            'Our standard support SLA is a 4-hour response. Enterprise Support halves it to 2 hours, and because the person responding already knows your environment, the time to resolution shrinks with it.',
          ],
        },
        {
          title: 'Multiple communication channels',
          body: [
            'Log requests in whichever way suits the moment: the support portal, e-mail, phone, or a shared Microsoft Teams channel with your dedicated team. Every request is tracked in one place, whichever channel it arrived through.',
          ],
        },
        {
          title: 'Budget flexibility',
          body: [
            'Hours are not limited to fixing faults. Use them for small enhancements, new reports, user training or advice on an upcoming project, and change the size of your plan as your needs grow or settle.',
          ],
        },
        {
          title: 'Fixed monthly spend',
          body: [
            'You are billed a fixed amount every month, so support costs are known in advance and easy to budget for. No surprise invoices after a busy month, and a monthly report shows exactly how the hours were used.',
          ],
        },
      ],
    },
    {
      kind: 'accordion',
      heading: 'Dedicated to your organisation',
      intro: ['Enterprise Support works because the same people look after you month after month.'],
      items: [
        {
          title: 'Access to the team',
          body: [
            'You speak directly to the consultants and developers who know your systems, not to a call centre that passes messages on. When a problem needs a specialist, your dedicated consultant brings them in and stays accountable for the outcome.',
          ],
        },
        {
          title: 'Short response times',
          body: [
            'A 2-hour response within the agreed hours, with priorities agreed up front, so a failed integration is treated differently from a request to change a page layout.',
          ],
        },
        {
          title: 'Custom tailoring',
          body: [
            'Cover hours, escalation contacts, reporting and the balance between fixes, enhancements and training are set to suit your organisation, and reviewed with you every quarter.',
          ],
        },
      ],
    },
    {
      kind: 'checks',
      tone: 'muted',
      columns: 3,
      heading: 'Where we put our focus',
      intro: [
        'Keeping systems running is only part of the job. The hours in your plan are also used to make sure the investment pays off, with our attention on:',
      ],
      items: [
        'Driving proper use of the features you already pay for',
        'Adoption across every department, not just IT',
        'Guidance for site owners, administrators and key users',
        'Advisory on roadmaps, licensing and Microsoft changes',
        'Education for new starters and existing users',
      ],
    },
  ],
  cta: {
    heading: 'Support that knows your systems',
    text: 'List the systems you depend on and when your users need help. We will propose a plan size, cover hours and a fixed monthly fee.',
    action: { to: '/contact', label: 'Ask about Enterprise Support' },
  },
} satisfies ServicePageContent;
