import type { ServicePageContent } from '@site/ui';
import { DataAnalysisArt } from '../art/data-analysis';

export default {
  art: DataAnalysisArt,
  lead: 'Some questions cannot wait for a new dashboard: why margins slipped, which branches are losing customers, whether last year’s price change worked. Our analysts answer them with evidence you can act on, and set up the reporting to keep answering them.',
  intro: {
    heading: 'Answers, not just data',
    paragraphs: [
      'Data analysis starts with a question someone in the business needs answered. We work with the person asking it to sharpen the question, find and combine the data that bears on it, test the obvious explanations and the less obvious ones, and present the findings in plain language with the numbers behind them.',
      'Sometimes the result is a one-off piece of work that informs a decision. More often the same question will be asked again next month, so we turn the analysis into a repeatable report or a view in your existing BI tool and hand it over to your team.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'BI and analytics services',
      items: [
        {
          title: 'KPI and scorecard design',
          text: 'We help leadership teams choose a small set of measures that reflect strategy, define them precisely and set realistic targets based on historical performance.',
        },
        {
          title: 'Reports and dashboards',
          text: 'Operational, financial and board reports in Power BI, Tableau, Qlik or Excel, designed for the people who read them and tested against the source systems.',
        },
        {
          title: 'Self-service enablement',
          text: 'Curated datasets, templates and training that let business analysts explore data safely on their own, within clear governance rules.',
        },
        {
          title: 'Deep-dive analysis',
          text: 'Focused investigations such as profitability by customer, root causes of rising costs or the effect of a campaign, delivered as a short, evidence-based briefing.',
        },
        {
          title: 'Survey and programme analysis',
          text: 'Statistical analysis of survey, monitoring and evaluation data for non-profits, health and education programmes, including reports ready for donors and boards.',
        },
        {
          title: 'Analytics as a managed service',
          text: 'A dedicated analyst or small team on a monthly arrangement, maintaining your reports, answering ad hoc requests and presenting insights at management meetings.',
        },
      ],
    },
    {
      kind: 'checks',
      columns: 2,
      heading: 'Questions we have helped clients answer',
      items: [
        'Which products actually make money once returns and discounts are included?',
        'Why do some branches win more new accounts than others with the same footfall?',
        'Which suppliers cause most late deliveries and production delays?',
        'Which dealerships sell the most service plans, and why?',
        'Which learners are likely to drop out, and when do they disengage?',
        'Are programme targets on track in every district, and where is data missing?',
      ],
    },
    {
      kind: 'prose',
      tone: 'muted',
      heading: 'How a piece of analysis runs',
      paragraphs: [
        'We agree the question, the decision it supports and the deadline in a short scoping call, then confirm in writing what data we will use and what you will receive. Most deep dives take two to four weeks. We share early findings halfway through, so there are no surprises, and finish with a presentation to the decision-makers and a written summary that includes the method and its limits.',
        'Your data stays in your environment wherever possible, and we work under confidentiality agreements and POPIA-compliant handling of any personal information.',
      ],
    },
    {
      kind: 'links',
      heading: 'Related services',
      items: [
        {
          to: '/services/business-intelligence/bi',
          title: 'BI for Business',
          text: 'Set up the warehouse, dashboards and KPIs for organisation-wide reporting.',
        },
        {
          to: '/services/data-analytics/data-science',
          title: 'Data Science',
          text: 'Move from explaining the past to predicting demand, churn and risk.',
        },
        {
          to: '/services/data-analytics/data-engineering',
          title: 'Data Engineering',
          text: 'Build the pipelines that keep analysis supplied with clean data.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Got a question your reports can’t answer?',
    text: 'Send it to us as you would put it to a colleague. We will reply with how we would approach it and what it would take.',
    action: { to: '/contact', label: 'Ask an analyst' },
  },
} satisfies ServicePageContent;
