import type { ServicePageContent } from '@site/ui';
import { EpmArt } from '../art/epm';

export default {
  art: EpmArt,
  lead: 'Microsoft retired Project Online on 30 September 2026. Whether your portfolio has already moved, is half-way there or still runs on a Project Server farm, we put it on a platform Microsoft supports and keep the reports your executive depends on.',
  intro: {
    heading: 'Enterprise project management after Project Online',
    paragraphs: [
      'Enterprise Project Management (EPM) is the discipline of running every project as part of one portfolio: choosing the right ones, staffing them without burning people out, tracking progress and cost, and reporting honestly to the executive. For more than a decade many organisations did that in Project Online or Project Server. Microsoft stopped selling Project Online on 1 October 2025 and switched it off on 30 September 2026, so the tooling question has become a migration question.',
      'We have implemented and supported Microsoft project and portfolio tools for capital projects in mining and petroleum, plant upgrades in manufacturing, IT programmes in banking and donor-funded programmes at non-profits. That history is what a migration needs: we know which custom fields, enterprise calendars and timesheet rules were there for a reason, and which can be left behind.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'Where a Project Online portfolio can go now',
      intro: [
        'There is no single successor. The right home depends on where your data may be hosted, how much resource and financial control the PMO needs, and which licences you already pay for. We compare the options against your own reports and processes, not against a feature matrix.',
      ],
      items: [
        {
          title: 'Planner and Project for the web',
          text: 'Microsoft’s cloud route: Planner’s premium plans in Microsoft 365, with project data in Dataverse, extended with Power Apps and Power Automate where your PMO needs more structure, and reported in Power BI.',
        },
        {
          title: 'Project Server Subscription Edition',
          text: 'The on-premises route for organisations that must keep project data in their own data centre or rely on enterprise resource pools and timesheets. We install it on SharePoint Server Subscription Edition and migrate your schedules into it.',
        },
        {
          title: 'A third-party PPM platform',
          text: 'When neither Microsoft route fits, a portfolio tool from another vendor may. We help you shortlist, run a proof of concept on your own projects and move the data, without a commission from any vendor.',
        },
      ],
    },
    {
      kind: 'prose',
      heading: 'Project Server farms that are still running',
      paragraphs: [
        'Project Server 2016 and 2019 left Microsoft’s extended support in July 2026, together with the SharePoint Server releases they run on. Many of these farms still carry years of schedules and actuals that finance and audit teams need. We keep them stable while a plan is agreed, archive what must be kept, and upgrade the rest to Subscription Edition or carry it into the platform you choose.',
      ],
    },
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'What a migration with us covers',
      items: [
        {
          title: 'Estate assessment',
          text: 'An inventory of projects, custom fields, workflows, timesheet history and reports, with a clear view of what maps to the new platform, what needs rebuilding and what can be archived.',
        },
        {
          title: 'Schedules and data',
          text: 'Active projects moved with their tasks, baselines, assignments and custom fields; closed projects archived in a form that finance and auditors can still search.',
        },
        {
          title: 'Resource management',
          text: 'Resource pools, skills, capacity and cost rates rebuilt in the new platform, so managers can still see who is overbooked before a deadline slips.',
        },
        {
          title: 'Power BI reporting',
          text: 'Portfolio dashboards, status reports and resource heat maps rebuilt on the new data source, checked line by line against the reports your executive already reads.',
        },
        {
          title: 'Portfolio and PMO rules',
          text: 'Business drivers, scoring, stage gates and approval routing carried over or redesigned, and documented so the process outlives any one person.',
        },
        {
          title: 'Integration',
          text: 'Connections to SharePoint project sites and to your ERP for budgets and actual costs, rebuilt with Power Automate or documented APIs instead of the old project feeds.',
        },
      ],
    },
    {
      kind: 'prose',
      tone: 'dark',
      heading: 'How we run an EPM migration',
      paragraphs: [
        'We start with your project lifecycle rather than with the software. In a few short workshops we map how projects are proposed, approved, planned, reported and closed, and agree which reports the executive and the PMO cannot do without. That decides the target platform and the migration design.',
        'We then move in waves: a pilot portfolio first, checked report by report against the old figures, then the remaining projects, then the archive. Project managers, team members and executives are trained on what changes for each of them, and after go-live we can stay on as your support partner.',
      ],
    },
    {
      kind: 'links',
      tone: 'muted',
      heading: 'Related enterprise services',
      items: [
        {
          to: '/services/enterprise/sharepoint',
          title: 'Microsoft SharePoint',
          text: 'Project sites, document libraries and Power Automate approvals that sit alongside your project schedules.',
        },
        {
          to: '/services/enterprise/enterprise-support',
          title: 'Enterprise Support',
          text: 'A dedicated team to keep your new project platform running and your PMO supported after the move.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Still running projects on borrowed time?',
    text: 'Send us a short description of your current set-up: the platform, roughly how many projects and users, and the reports that matter most. A consultant who has run these migrations will come back with the options and a realistic timeline.',
    action: { to: '/contact', label: 'Plan your EPM migration' },
  },
} satisfies ServicePageContent;
