import type { ServicePageContent } from '@site/ui';
import { BiArt } from '../art/bi';

export default {
  art: BiArt,
  lead: 'Most management teams already own the data they need; it is simply spread across an ERP, a CRM, a payroll system and a dozen spreadsheets. We bring it together into dashboards and reports that managers trust and use every week.',
  intro: {
    heading: 'What business intelligence gives managers',
    paragraphs: [
      'Business intelligence is the practice of turning the records your systems already keep into a shared, reliable picture of how the organisation is performing. Done well, it replaces the month-end scramble of exporting, pasting and reconciling with numbers that refresh on their own and mean the same thing in every meeting.',
      'For a managing director that means seeing margin by product, region and customer without asking finance for a special report. For a sales head it means pipeline and conversion by rep, updated overnight. For an operations manager it means knowing on Tuesday that a branch is behind target, not discovering it in next month’s pack. The common thread is a single version of the truth, with the ability to drill from a headline figure down to the transactions behind it.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'What we build for you',
      intro: [
        'A BI programme is more than a set of charts. We deliver the foundations underneath them, so the dashboards keep working after the first launch.',
      ],
      items: [
        {
          title: 'Management dashboards',
          text: 'Executive, departmental and operational dashboards designed around the decisions each audience makes, readable on a laptop in a board meeting or on a phone between sites.',
        },
        {
          title: 'KPI definitions',
          text: 'An agreed catalogue of key performance indicators: what each one measures, how it is calculated, who owns it and which target it is judged against. No more three versions of “revenue”.',
        },
        {
          title: 'Self-service reporting',
          text: 'Curated, documented data models that let business users build their own reports and answer follow-up questions without raising a ticket with IT.',
        },
        {
          title: 'Data warehouse',
          text: 'A central warehouse that pulls data from finance, sales, HR and operational systems on a schedule, cleans it, keeps history and models it for fast, consistent reporting.',
        },
        {
          title: 'Security and governance',
          text: 'Row-level security so each manager sees their own region or cost centre, certified datasets, and an audit trail of who published what.',
        },
        {
          title: 'Training and adoption',
          text: 'Hands-on sessions for report consumers and power users, plus internal champions who keep the reports relevant as the business changes.',
        },
      ],
    },
    {
      kind: 'checks',
      columns: 3,
      heading: 'Tools we work with',
      intro: [
        'We are not tied to one vendor. We recommend the platform that fits your licences, your skills and your budget, and we are equally comfortable extending what you already run.',
      ],
      items: [
        'Microsoft Power BI',
        'Tableau',
        'Qlik Sense and QlikView',
        'Microsoft Fabric and Azure Synapse',
        'SQL Server and SSIS',
        'Snowflake',
        'dbt for data modelling',
        'Excel and Power Pivot',
        'SAP, Sage and Dynamics connectors',
      ],
    },
    {
      kind: 'features',
      tone: 'muted',
      columns: 4,
      heading: 'How an engagement runs',
      intro: [
        'Our BI projects deliver in short increments, so you see working reports early and shape what comes next.',
      ],
      items: [
        {
          title: 'Discovery',
          text: 'Two weeks of interviews and workshops to list the decisions that matter, the KPIs behind them and the systems that hold the data. You receive a prioritised backlog and an architecture proposal.',
        },
        {
          title: 'Foundation',
          text: 'We connect the first sources, build the warehouse layer and agree the KPI definitions with the people who will own them.',
        },
        {
          title: 'First dashboards',
          text: 'A first subject area, often finance or sales, goes live within six to eight weeks and is refined with its users before we move on.',
        },
        {
          title: 'Scale and hand over',
          text: 'Further subject areas follow in monthly releases. We document everything, train your team and can stay on to support and extend the platform.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Ready for reports that run themselves?',
    text: 'Send us the list of figures your management team chases every month. We will point to where a first dashboard would save the most time.',
    action: { to: '/contact', label: 'Talk to a BI consultant' },
  },
} satisfies ServicePageContent;
