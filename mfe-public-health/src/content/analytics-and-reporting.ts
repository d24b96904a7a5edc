import type { ServicePageContent } from '@site/ui';
import { AnalyticsAndReportingArt } from '../art/analytics-and-reporting';

export default {
  art: AnalyticsAndReportingArt,
  lead: 'We produce the donor and ministry reports your programme owes, on time and consistent with each other, and build the dashboards, maps and trend views that show managers where to act next.',
  intro: {
    heading: 'Reporting and analysis for health programmes',
    paragraphs: [
      'In many programmes the M\u00a0&\u00a0E team spends the last weeks of every quarter assembling reports by hand: exporting, pasting into templates and reconciling totals that do not agree. Little time is left to look at what the figures say.',
      'We automate the assembly and give that time back to analysis. Our analysts understand public-health indicators as well as the tools, so the work starts from the questions a district manager, a technical adviser or a funder actually asks.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 2,
      heading: 'Reporting',
      intro: [
        'Every report is generated from the same validated data, so the figure in the donor report matches the one in the ministry return.',
      ],
      items: [
        {
          title: 'Donor reports',
          text: 'Quarterly and annual results against your grant’s targets, in each funder’s format, with the tables, charts and narrative sections prepared for review.',
        },
        {
          title: 'Ministry reports',
          text: 'Monthly and quarterly returns that use national indicator definitions and data elements, submitted to DHIS2 directly or as ready-to-import files.',
        },
        {
          title: 'PEPFAR and Global Fund style indicator reporting',
          text: 'Results disaggregated by age band, sex, population group and site, checked against the funder’s rules before submission, for MER-style and progress-update reporting cycles.',
        },
        {
          title: 'Automated report packs',
          text: 'A complete pack per district, province or partner, produced on a schedule as PDF and Excel and sent to the right inboxes, with no copying and pasting.',
        },
      ],
    },
    {
      kind: 'features',
      columns: 4,
      heading: 'Visual analytics',
      intro: [
        'Reports answer the funder. Visual analytics answer the manager who has to decide where to send a mentor or a stock order next week.',
      ],
      items: [
        {
          title: 'Dashboards',
          text: 'Views for each audience, from a single site to the whole country, with targets, achievement and the indicators that need attention first.',
        },
        {
          title: 'Maps',
          text: 'Results by facility, district and province, showing coverage gaps, hotspots and how far clients travel to reach services.',
        },
        {
          title: 'Trends',
          text: 'Month-on-month and year-on-year series that separate a real change from seasonal patterns or a reporting delay.',
        },
        {
          title: 'Cohort views',
          text: 'Groups of clients who started care in the same month, followed over time, to see retention, viral load suppression or treatment completion at 6 and 12 months.',
        },
      ],
    },
    {
      kind: 'split',
      tone: 'dark',
      heading: 'Data quality checks, built in',
      start: {
        kind: 'prose',
        paragraphs: [
          'A report is only as credible as the data beneath it. We run automated checks every time data arrives and list the problems for the person who can fix them, long before a funder or an auditor finds them.',
          'When a full verification is due, we support routine data quality assessments by comparing reported figures with source registers at a sample of sites.',
        ],
      },
      end: {
        kind: 'checks',
        items: [
          'Completeness: which sites have not reported, and which fields are empty',
          'Timeliness: submissions received after the deadline',
          'Outliers: values far from a site’s own history',
          'Internal consistency: for example, more positive results than tests',
          'Agreement between levels and between systems',
          'Duplicate clients and duplicate submissions',
        ],
      },
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'Typical engagements',
      items: [
        {
          title: 'Report automation',
          body: [
            'We take the reports you already produce, document every indicator and calculation, and rebuild them as automated packs. Most projects take six to ten weeks, and the first automated cycle runs alongside your manual one so both can be compared.',
          ],
        },
        {
          title: 'Dashboards and analysis',
          body: [
            'We design dashboards with the people who will use them, test them against known figures and train your team to maintain them. We work in the tools you already have where possible:',
          ],
          list: [
            'DHIS2 dashboards and analytics',
            'Power BI',
            'R and Python for statistical analysis',
            'PostgreSQL and QGIS for data and maps',
          ],
        },
        {
          title: 'Analyst support',
          body: [
            'An analyst from our team works with your M\u00a0&\u00a0E unit each month or each quarter, preparing reports, answering questions from funders and presenting findings at programme reviews.',
          ],
        },
      ],
    },
    {
      kind: 'links',
      heading: 'Related services',
      items: [
        {
          to: '/public-health/MandE-solutions',
          title: 'M & E Solutions',
          text: 'The M\u00a0&\u00a0E system that collects, manages and aggregates the data behind your reports.',
        },
        {
          to: '/public-health/MandE-tools',
          title: 'M & E Tools',
          text: 'Digital tools that replace paper forms and registers, so data arrives clean and on time.',
        },
        {
          to: '/services/data-analytics/data-analysis',
          title: 'Data Analysis',
          text: 'BI and analytics services for organisations beyond the health sector.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Spending each quarter-end on reports?',
    text: 'Show us the reports you produce today. We will tell you which parts can be automated, how long it would take and what your team would get back.',
    action: { to: '/contact', label: 'Talk to an analyst' },
  },
} satisfies ServicePageContent;
