import type { ServicePageContent } from '@site/ui';
import { IntegrationArt } from '../art/integration';

export default {
  art: IntegrationArt,
  lead: 'Your ERP, CRM, finance and operational systems each hold part of the truth. We connect them so that data is captured once, moves reliably and arrives where people need it, without retyping or overnight spreadsheets.',
  intro: {
    heading: 'When systems do not talk, people fill the gaps',
    paragraphs: [
      'In most organisations we visit, someone spends part of every week copying data from one system into another: sales orders from the CRM into the ERP, invoices into the finance package, production figures from a plant system into a management report. Every manual step adds delay and errors, and nobody is quite sure which figure is correct.',
      'Systems integration removes those steps. We design and build the connections between your applications, whether they are modern cloud services or a twenty-year-old system nobody dares to touch, and we make those connections observable, secure and easy to change when one of the systems is replaced.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 4,
      heading: 'Systems we connect',
      items: [
        {
          title: 'ERP',
          text: 'SAP, Microsoft Dynamics 365, Sage X3, Syspro and Oracle: orders, stock, production and procurement data kept in step with the rest of the business.',
        },
        {
          title: 'CRM',
          text: 'Salesforce, Dynamics 365 and HubSpot, linked to your ERP and portals so sales and service teams see current orders, balances and cases.',
        },
        {
          title: 'Finance and banking',
          text: 'General ledger, payroll and accounting packages such as Sage and Xero, plus bank statement feeds and payment files for reconciliation.',
        },
        {
          title: 'Legacy systems',
          text: 'Mainframe and AS/400 applications, old databases and flat-file exports, wrapped in modern APIs so they can keep working while you plan their replacement.',
        },
      ],
    },
    {
      kind: 'accordion',
      heading: 'Integration approaches and technologies',
      intro: [
        'There is no single right way to connect systems. We choose the pattern for each flow based on how fresh the data must be, how much of it there is and what each system can support.',
      ],
      items: [
        {
          title: 'APIs',
          body: [
            'REST and SOAP APIs for real-time requests, such as checking a customer’s credit limit or stock level while an order is being captured. We publish them through an API gateway with authentication, throttling and usage reporting, and document each one in OpenAPI.',
          ],
        },
        {
          title: 'Messaging and events',
          body: [
            'Queues and event streams, using RabbitMQ, Azure Service Bus or Apache Kafka, for flows where systems must not wait for each other. A message survives if the receiving system is down for maintenance and is delivered once it returns, so no transaction is lost.',
          ],
        },
        {
          title: 'ETL and data pipelines',
          body: [
            'Scheduled extract, transform and load jobs, with tools such as SQL Server Integration Services and Azure Data Factory, for large volumes that do not need to move instantly: nightly ledger consolidation, monthly reporting loads and data migrations during a system replacement.',
          ],
        },
        {
          title: 'Integration platforms (iPaaS)',
          body: [
            'Where many cloud applications need connecting, an integration platform as a service such as Azure Logic Apps, MuleSoft or Boomi provides ready-made connectors and central monitoring. We help you decide whether the licence pays for itself or whether custom code is cheaper over time.',
          ],
        },
      ],
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'How our integration team works',
      items: [
        {
          title: 'Map the landscape',
          body: [
            'We document every system, who owns each data item, how data flows today and where it breaks. This map alone often reveals quick wins.',
          ],
        },
        {
          title: 'Agree the contracts',
          body: [
            'For each flow we define the data format, the frequency, the validation rules and what happens when something fails, and we agree it with both system owners before building.',
          ],
        },
        {
          title: 'Build, test and run in parallel',
          body: [
            'Integrations are tested with realistic volumes and messy real-world data, then run alongside the manual process until the figures reconcile.',
          ],
        },
        {
          title: 'Monitor and support',
          body: [
            'Every integration comes with dashboards and alerts, automatic retries for temporary failures and a clear queue of records that need a person’s attention. We can support them on a monthly plan or train your team to do so.',
          ],
        },
      ],
    },
  ],
  cta: {
    heading: 'Tired of retyping data between systems?',
    text: 'List the systems you run and where data gets stuck. We will sketch an integration plan and tell you which flows to automate first.',
    action: { to: '/contact', label: 'Plan your integration' },
  },
} satisfies ServicePageContent;
