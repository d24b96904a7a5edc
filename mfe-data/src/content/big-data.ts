import type { ServicePageContent } from '@site/ui';
import { BigDataArt } from '../art/big-data';

export default {
  art: BigDataArt,
  lead: 'When transaction logs, sensor readings and telematics outgrow a single database, the answer is a platform designed for volume and speed. We design, build and run big data platforms that stay reliable and affordable as your data grows.',
  intro: {
    heading: 'When data outgrows the database',
    paragraphs: [
      'A bank processing millions of card transactions a day, a mine streaming vibration data from every conveyor drive, a vehicle distributor collecting telematics from a national fleet: each reaches a point where nightly batch jobs run into the working day and analysts wait hours for a query. Adding hardware to the old database no longer helps.',
      'Big data platforms spread storage and processing across many machines, usually in the cloud, so that capacity grows with the workload and you pay for what you use. The technology is mature; what makes or breaks a platform is the engineering around it: how data arrives, how it is organised, who may see it and what it costs to run each month.',
    ],
  },
  sections: [
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'Data engineering services for big data',
      items: [
        {
          title: 'Platform architecture',
          body: [
            'We assess your data volumes, latency needs, skills and existing licences, then design a platform that fits: a cloud lakehouse, a streaming architecture or a hybrid that keeps sensitive data on premises. You receive a costed design and a migration path, not a vendor brochure.',
          ],
        },
        {
          title: 'Ingestion and streaming',
          body: [
            'Batch loads from ERP and core banking systems, change data capture from operational databases, and real-time streams from devices and applications, all landed with their history intact.',
          ],
        },
        {
          title: 'Data lake and lakehouse build',
          body: [
            'Raw, cleaned and curated zones on open table formats, with partitioning and file sizing tuned so queries stay fast as tables grow into billions of rows.',
          ],
        },
        {
          title: 'Migration from legacy platforms',
          body: [
            'We move on-premises Hadoop clusters and overloaded warehouses to modern cloud services, running old and new side by side until the numbers reconcile.',
          ],
        },
        {
          title: 'Platform operations and cost control',
          body: [
            'Monitoring, alerting and monthly cost reviews, with cluster policies and auto-scaling that stop idle compute from eating the budget.',
          ],
        },
      ],
    },
    {
      kind: 'accordion',
      heading: 'Our capabilities',
      intro: [
        'Our engineers have built and run production workloads with the tools below on Microsoft Azure, Amazon Web Services and Google Cloud.',
      ],
      items: [
        {
          title: 'Distributed processing',
          body: [
            'Large-scale transformation and feature preparation for analytics and machine learning.',
          ],
          list: ['Apache Spark', 'Databricks', 'Apache Flink', 'Azure Synapse Spark pools'],
        },
        {
          title: 'Streaming and messaging',
          body: [
            'Event pipelines that deliver data in seconds, with replay when something downstream fails.',
          ],
          list: [
            'Apache Kafka and Confluent',
            'Azure Event Hubs',
            'Amazon Kinesis',
            'MQTT for industrial devices',
          ],
        },
        {
          title: 'Storage and table formats',
          body: ['Open formats that avoid lock-in and support updates, deletes and time travel.'],
          list: [
            'Delta Lake',
            'Apache Iceberg',
            'Parquet',
            'Azure Data Lake Storage, Amazon S3, Google Cloud Storage',
          ],
        },
        {
          title: 'Orchestration and automation',
          body: [
            'Pipelines and infrastructure defined as code, tested and deployed through CI/CD.',
          ],
          list: [
            'Apache Airflow',
            'Azure Data Factory',
            'Terraform',
            'GitHub Actions and Azure DevOps',
          ],
        },
        {
          title: 'Governance and security',
          body: [
            'Catalogues, lineage and fine-grained access control that satisfy POPIA in South Africa and GDPR in Europe, with personal data masked or tokenised where it is not needed.',
          ],
          list: [
            'Unity Catalog',
            'Microsoft Purview',
            'Encryption at rest and in transit',
            'Role- and attribute-based access',
          ],
        },
      ],
    },
    {
      kind: 'action',
      tone: 'dark',
      heading: 'Good pipelines make big data useful',
      intro: [
        'A platform is only as good as the data flowing into it. Our data engineering practice builds the pipelines, models and quality checks that turn raw volume into datasets analysts and data scientists can rely on.',
      ],
      action: {
        to: '/services/data-analytics/data-engineering',
        label: 'Learn More',
        context: 'about our data engineering services',
      },
    },
  ],
  cta: {
    heading: 'Is your data platform keeping up?',
    text: 'Share your data volumes, your slowest reports and your monthly cloud bill. We will show you, honestly, where the bottleneck is.',
    action: { to: '/contact', label: 'Ask for a platform review' },
  },
} satisfies ServicePageContent;
