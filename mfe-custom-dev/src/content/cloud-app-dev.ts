import type { ServicePageContent } from '@site/ui';
import { CloudAppDevArt } from '../art/cloud-app-dev';

export default {
  art: CloudAppDevArt,
  lead: 'Applications designed for the cloud from the first line of code: they scale with demand, recover from failure on their own and cost what they should, on the platform and deployment model that fit your organisation.',
  intro: {
    heading: 'Built for the cloud, not just moved to it',
    paragraphs: [
      'Lifting an old server into a virtual machine rarely delivers what the cloud promises. The savings and resilience come from applications designed for it: stateless services that scale out at month-end and back in overnight, managed databases with automatic backups, and infrastructure defined as code so that a new environment takes minutes rather than weeks.',
      'We build new cloud-native applications and re-engineer existing ones for banks, petroleum distributors, universities and non-profits, some serving one city and some several countries. Before recommending a platform, we look at where your data may legally sit, what your team already knows and how costs will behave as usage grows.',
    ],
  },
  sections: [
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'Private, public, hybrid or multicloud',
      intro: [
        'The deployment model shapes cost, control and compliance more than any single technology choice. Here is how we explain each, and when it fits.',
      ],
      items: [
        {
          title: 'Private cloud',
          body: [
            'Cloud infrastructure dedicated to your organisation alone, in your own data centre or hosted by a provider. You keep full control over hardware, network and data location.',
            'It fits when regulation or policy requires data to stay on infrastructure you control, as is common in banking and government work, or when steady, predictable workloads make owned capacity cheaper than paying by the hour.',
          ],
        },
        {
          title: 'Public cloud',
          body: [
            'Shared infrastructure run by a provider such as AWS, Azure or Google Cloud, paid for by use. You gain managed databases, serverless functions and global reach without buying hardware.',
            'It fits most new applications, variable or seasonal workloads, and organisations that would rather spend their effort on software than on servers. Local regions in South Africa now make it an option for many data residency requirements too.',
          ],
        },
        {
          title: 'Hybrid cloud',
          body: [
            'A combination of private infrastructure and public cloud, connected so that applications and data can move between them.',
            'It fits when core systems such as an ERP or a plant control system must stay on premises, while customer portals, analytics or burst capacity run in the public cloud. It is also the usual path for a gradual migration.',
          ],
        },
        {
          title: 'Multicloud',
          body: [
            'Deliberately using services from two or more public cloud providers, for example running applications on Azure while analytics run on Google Cloud.',
            'It fits when different providers are clearly best at different jobs, when contracts or regulators require you to avoid depending on a single vendor, or after a merger brings two cloud estates together. It adds operational complexity, so we recommend it only when the benefit is clear.',
          ],
        },
      ],
    },
    {
      kind: 'features',
      columns: 3,
      heading: 'Platforms we build on',
      intro: [
        'We work across all five, so our advice follows your needs rather than a single vendor’s preferences.',
      ],
      items: [
        {
          title: 'Amazon Web Services (AWS)',
          text: 'The broadest catalogue of services, with a Cape Town region. Our default for serverless workloads and applications that need global reach.',
        },
        {
          title: 'Microsoft Azure',
          text: 'The natural home for organisations already on Microsoft 365, Dynamics and .NET, with regions in Johannesburg and Cape Town.',
        },
        {
          title: 'Google Cloud',
          text: 'Strong in data analytics, machine learning and Kubernetes, with a Johannesburg region for local data residency.',
        },
        {
          title: 'Rackspace',
          text: 'Managed private and hosted cloud with round-the-clock operations support, for clients who want dedicated infrastructure without running it themselves.',
        },
        {
          title: 'Heroku',
          text: 'A platform-as-a-service that lets small teams and start-ups deploy web applications with almost no infrastructure work, ideal for pilots and early products.',
        },
      ],
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'Cloud application services',
      items: [
        {
          title: 'Cloud-native development',
          body: [
            'New applications built from containers, managed services and serverless functions, with automatic scaling and recovery designed in from the start.',
          ],
        },
        {
          title: 'Migration and modernisation',
          body: [
            'We assess each existing application and decide, case by case, whether to rehost, replatform or refactor it, then migrate in waves with a tested rollback plan for each.',
          ],
        },
        {
          title: 'DevOps and infrastructure as code',
          body: [
            'Environments defined in Terraform or Bicep, automated build and release pipelines, and identical test and production set-ups, so releases become routine rather than events.',
          ],
        },
        {
          title: 'Cost optimisation',
          body: [
            'Right-sized resources, reserved capacity where usage is steady, budgets and alerts per team, and monthly reports that show what each application costs to run.',
          ],
        },
        {
          title: 'Security and compliance',
          body: [
            'Identity and access management, network segmentation, encryption, backups tested by restoring them, and controls aligned with POPIA and GDPR.',
          ],
        },
      ],
    },
  ],
  cta: {
    heading: 'Unsure which cloud, or which model?',
    text: 'Bring us your application list, your data residency rules and last quarter’s hosting bill. You will get an independent recommendation, with running costs you can take to your finance team.',
    action: { to: '/contact', label: 'Plan your cloud application' },
  },
} satisfies ServicePageContent;
