import type { ServicePageContent } from '@site/ui';
import { MandESolutionsArt } from '../art/mande-solutions';

export default {
  art: MandESolutionsArt,
  lead: 'One monitoring and evaluation system for the whole programme: data captured once at the facility, rolled up to district, province and national level, and shown against your targets on dashboards your team and funders can trust.',
  intro: {
    heading: 'M\u00a0&\u00a0E software built around your results framework',
    paragraphs: [
      'Many health programmes run M\u00a0&\u00a0E on a patchwork: forms in one tool, spreadsheets on a coordinator’s laptop, a separate template for every donor. Nobody is quite sure which number is the right one.',
      'We design, configure and run M\u00a0&\u00a0E software that replaces it with one system. It starts from your logframe or results framework, with every indicator defined once, and covers the full cycle from the first record captured at a site to the figure presented to a ministry or a funder.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'What the system covers',
      intro: [
        'Each part can be introduced on its own, but they are designed to work together on one database.',
      ],
      items: [
        {
          title: 'Data collection',
          text: 'Web and mobile forms that work offline, with validation and skip logic, for routine service data, surveys and community activities.',
        },
        {
          title: 'Data management',
          text: 'A central database with a master list of sites, unique identifiers, version-controlled forms, a data dictionary, a full audit trail and automated backups.',
        },
        {
          title: 'Progress tracking',
          text: 'Annual and quarterly targets per site and partner, with achievement shown as a percentage and a clear flag where a site is falling behind.',
        },
        {
          title: 'Dashboards',
          text: 'Live views for each level of the organisation, from a facility in-charge checking this month’s figures to a programme director comparing provinces.',
        },
        {
          title: 'Indicator aggregation',
          text: 'Indicators calculated once and rolled up automatically from facility to district, province and national level, by age band, sex and any other disaggregation you report.',
        },
        {
          title: 'Access and security',
          text: 'Role-based access tied to the organisation hierarchy, encryption in transit and at rest, and handling of personal information that meets POPIA and GDPR.',
        },
      ],
    },
    {
      kind: 'split',
      tone: 'dark',
      heading: 'From facility to national level, without re-keying',
      start: {
        kind: 'prose',
        paragraphs: [
          'Every record belongs to a place in your organisation hierarchy. When a clinic submits its monthly data, district, provincial and national totals update at once, with no one copying figures between spreadsheets.',
          'Aggregation follows the rules of each indicator rather than simply adding numbers up. New clients tested are summed across months; patients currently on treatment take the latest value; a rate is recalculated from its numerator and denominator at every level instead of averaging percentages. Reporting periods follow your calendars, whether a government financial year from April or a donor year from October.',
        ],
      },
      end: {
        kind: 'checks',
        items: [
          'Facility or community site: records captured and checked',
          'District: sites compared, gaps followed up',
          'Province: districts compared against targets',
          'National: one figure for ministry and donor reports',
        ],
      },
    },
    {
      kind: 'features',
      columns: 3,
      heading: 'Who it is for',
      items: [
        {
          title: 'NGOs and community-based organisations',
          text: 'Programmes across many sites and several funders that need one set of figures, not reports that depend on one spreadsheet expert.',
        },
        {
          title: 'Health departments',
          text: 'District, provincial and national teams who need timely, comparable data from facilities and partners, aligned with national indicators and DHIS2.',
        },
        {
          title: 'Donors’ implementing partners',
          text: 'Partners on PEPFAR, Global Fund and other grants who report to strict definitions and deadlines, often to funder and ministry at once.',
        },
      ],
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'How we set it up',
      items: [
        {
          title: 'Indicator and workflow review',
          body: [
            'Two to three weeks with your M\u00a0&\u00a0E and programme leads to map indicators, data flows and reporting deadlines, ending in a written design and an agreed first release.',
          ],
        },
        {
          title: 'Configuration and migration',
          body: [
            'We configure the hierarchy, forms, indicators, targets and dashboards, and load historical data so trends start from day one rather than from go-live.',
          ],
        },
        {
          title: 'Integration',
          body: [
            'Where the ministry or funder runs its own system, we connect to it rather than duplicate it:',
          ],
          list: [
            'DHIS2 data exchange with national and district instances',
            'Imports from existing spreadsheets, registers and mobile forms',
            'Secure APIs for partners’ and funders’ systems',
          ],
        },
        {
          title: 'Pilot, training and roll-out',
          body: [
            'A pilot in one district proves the system with real users before wider roll-out. We train supervisors and M\u00a0&\u00a0E officers as trainers, so skills stay in the organisation.',
          ],
        },
        {
          title: 'Hosting and support',
          body: [
            'Hosting in-country, on your own servers or in a nearby cloud region, with monitoring, updates and a help desk. Your data and configuration remain yours, documented for handover.',
          ],
        },
      ],
    },
    {
      kind: 'links',
      heading: 'Related services',
      items: [
        {
          to: '/public-health/MandE-tools',
          title: 'M & E Tools',
          text: 'The digital screening, survey, register, referral and follow-up tools that feed the system with data from the field.',
        },
        {
          to: '/public-health/analytics-and-reporting',
          title: 'Data Analytics & Reporting',
          text: 'Donor and ministry reports, maps, trends and data quality checks built on the same data.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Ready for one version of your programme’s numbers?',
    text: 'Send us your indicator list and reporting calendar. We will come back within one working day with how we would set up your M\u00a0&\u00a0E system and what it would take.',
    action: { to: '/contact', label: 'Discuss your M & E system' },
  },
} satisfies ServicePageContent;
