import { company, type ServicePageContent } from '@site/ui';
import { DataEngineeringArt } from '../art/data-engineering';

export default {
  art: DataEngineeringArt,
  lead: 'Every dashboard and every model depends on data arriving on time, complete and correct. Our data engineers build and look after the pipelines, warehouses and lakehouses that make that happen.',
  intro: {
    heading: 'The plumbing behind reliable analytics',
    paragraphs: [
      'Ask an analyst where their time goes and the answer is usually the same: finding data, fixing it and reconciling it with last month’s figures. Data engineering removes that work by moving data out of source systems automatically, testing it on the way and modelling it so that each figure is calculated once, in one place.',
      'We design pipelines as software: version-controlled, tested, deployed automatically and monitored. When a source system changes or a load fails, the right person is alerted before the morning reports go out, not after a manager spots a gap.',
    ],
  },
  sections: [
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'Data engineering services',
      items: [
        {
          title: 'Data pipelines (ETL and ELT)',
          body: [
            'Scheduled and event-driven pipelines that extract from ERP, CRM, core banking, HR, historians and cloud applications, then load and transform the data in your warehouse or lakehouse.',
          ],
        },
        {
          title: 'Data warehouses and lakehouses',
          body: [
            'Design and build of central data stores on Snowflake, Microsoft Fabric, Azure Synapse, Databricks, BigQuery or SQL Server, with dimensional models that business users understand.',
          ],
        },
        {
          title: 'Data integration and APIs',
          body: [
            'Connections to third-party and partner systems through APIs, file exchanges and message queues, with retries, logging and reconciliation built in.',
          ],
        },
        {
          title: 'Data quality and observability',
          body: [
            'Automated tests for completeness, freshness, uniqueness and business rules on every load, with lineage that shows which reports a failure affects.',
          ],
        },
        {
          title: 'Cloud migration and modernisation',
          body: [
            'Moving legacy SSIS packages, stored procedures and on-premises warehouses to cloud services in planned stages, with parallel runs to prove the numbers match.',
          ],
        },
      ],
    },
    {
      kind: 'accordion',
      heading: 'What good data engineering brings',
      items: [
        {
          title: 'Numbers people trust',
          body: [
            'When every report draws on the same tested, documented models, meetings stop debating whose figure is right and start discussing what to do about it.',
          ],
        },
        {
          title: 'Faster access to data',
          body: [
            'Data that used to arrive in a monthly extract is available daily or within minutes, so teams react to events while they still matter.',
          ],
        },
        {
          title: 'Lower running costs',
          body: [
            'Incremental loads, sensible scheduling and right-sized compute often cut cloud and licensing spend, while fewer manual fixes free analysts for real analysis.',
          ],
        },
        {
          title: 'Ready for data science and AI',
          body: [
            'Clean, historical, well-described data is the first requirement of any machine learning project. With it in place, models go from idea to pilot in weeks.',
          ],
        },
        {
          title: 'Compliance built in',
          body: [
            'Access control, masking of personal information and full lineage make it easier to meet POPIA, GDPR and sector regulators’ requirements and to answer auditors.',
          ],
        },
      ],
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: `Why choose ${company.name}`,
      items: [
        {
          title: `Experience since ${company.foundingYear}`,
          body: [
            `We have been building data solutions since ${company.foundingYear}, and in that time we have seen most of the ways a data project can go wrong, and how to avoid them.`,
          ],
        },
        {
          title: 'We know your industry',
          body: [
            'Our teams have worked in manufacturing, mining, petroleum, banking, health, education, the motor industry and the non-profit sector, and understand the systems and regulations each one brings.',
          ],
        },
        {
          title: 'Independent advice',
          body: [
            'We are not resellers for any single platform. We recommend what suits your scale, skills and budget, including the tools you already own.',
          ],
        },
        {
          title: 'Engineering discipline',
          body: ['Every pipeline we hand over comes with the practices that keep it maintainable.'],
          list: [
            'Code in version control',
            'Automated tests and deployment',
            'Monitoring and alerting',
            'Documentation and a data catalogue',
          ],
        },
        {
          title: 'Your team grows with the project',
          body: [
            'We pair with your developers and analysts throughout, so that when we step back you can run and extend the platform yourselves, or keep us on for support.',
          ],
        },
      ],
    },
  ],
  cta: {
    heading: 'Spending more time fixing data than using it?',
    text: 'List the sources you struggle with and where the data needs to go. We will outline a pipeline design and a realistic first milestone.',
    action: { to: '/contact', label: 'Speak to a data engineer' },
  },
} satisfies ServicePageContent;
