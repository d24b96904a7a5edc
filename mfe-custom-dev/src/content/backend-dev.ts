import type { ServicePageContent } from '@site/ui';
import { BackendDevArt } from '../art/backend-dev';

export default {
  art: BackendDevArt,
  lead: 'The backend is where your business rules, your data and your security live. We build server-side systems that give correct answers, stay responsive at month-end peaks and tell you when something is wrong before your users do.',
  intro: {
    heading: 'The engine behind every screen',
    paragraphs: [
      'Users never see the backend, but they feel it: in a payment that posts twice, a report that takes ten minutes, or an outage on the day the payroll runs. Good backend engineering makes those problems rare, and makes them quick to diagnose when they do happen.',
      'We design and build APIs, services and data stores for web and mobile applications, for integrations between business systems, and for data platforms. Our developers work in .NET, Node.js, Java and Python, and we pick the stack that your own team can support after we hand over, rather than the one that happens to be fashionable.',
    ],
  },
  sections: [
    {
      kind: 'counters',
      tone: 'muted',
      heading: 'Four stages of backend delivery',
      intro: [
        'Each backend project follows four stages, and each stage ends with something you can review: a data model, an API contract, a tested release, a monitored production system.',
      ],
      items: [
        { target: 1, pad: 2, label: 'Domain modelling and data design' },
        { target: 2, pad: 2, label: 'API contracts and service architecture' },
        { target: 3, pad: 2, label: 'Build with automated tests and security checks' },
        { target: 4, pad: 2, label: 'Deployment, monitoring and load testing' },
      ],
    },
    {
      kind: 'accordion',
      heading: 'Backend services',
      items: [
        {
          title: 'API design and development',
          body: [
            'REST and GraphQL APIs described in OpenAPI before they are built, so frontend, mobile and partner teams can work in parallel. Versioning, rate limiting and clear error messages are included from the first release.',
          ],
        },
        {
          title: 'Databases and data modelling',
          body: [
            'Relational and document data models that reflect how your business actually works, with indexing, partitioning and archiving planned for the volumes you will have in five years, not just at launch.',
          ],
        },
        {
          title: 'Microservices and event-driven systems',
          body: [
            'Where the size of the system and the team justify it, we split services along business boundaries and connect them with queues and events. Where they do not, we build a well-structured modular monolith and say so.',
          ],
        },
        {
          title: 'Modernising legacy backends',
          body: [
            'Gradual replacement of ageing server code: we put an API in front of the old system, move functions across one by one and retire the old parts only when the new ones have proven themselves in production.',
          ],
        },
        {
          title: 'Performance tuning and rescue',
          body: [
            'When an existing system is slow or unstable, we profile it under realistic load, fix the worst bottlenecks first and leave you with the monitoring to keep it healthy.',
          ],
        },
      ],
    },
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'Languages, data stores and tooling',
      items: [
        {
          title: 'Languages and frameworks',
          body: ['Mature, well-supported platforms with long-term releases:'],
          list: [
            'C# with ASP.NET Core',
            'Node.js with TypeScript',
            'Java with Spring Boot',
            'Python with Django and FastAPI',
          ],
        },
        {
          title: 'Data and messaging',
          body: ['Chosen to match the shape of your data and your licensing position:'],
          list: [
            'PostgreSQL, SQL Server, MySQL and Oracle',
            'MongoDB and Redis',
            'RabbitMQ, Apache Kafka and Azure Service Bus',
          ],
        },
        {
          title: 'Delivery and operations',
          body: [
            'Docker and Kubernetes for packaging and running services, infrastructure as code with Terraform, CI/CD pipelines in GitHub Actions or Azure DevOps, and observability through OpenTelemetry, Grafana and your cloud provider’s monitoring.',
          ],
        },
      ],
    },
    {
      kind: 'features',
      columns: 3,
      heading: 'What every backend we build includes',
      items: [
        {
          title: 'Security by default',
          text: 'Authentication with OAuth 2.0 and OpenID Connect, encryption in transit and at rest, secrets kept out of code, and testing against the OWASP Top 10.',
        },
        {
          title: 'Privacy compliance',
          text: 'Data handling designed for POPIA in South Africa and GDPR in Europe: minimal collection, audit trails and clear retention rules.',
        },
        {
          title: 'Observability',
          text: 'Structured logs, metrics and traces with alerts on the measures that matter to the business, not only CPU and memory.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Need a backend that holds up under pressure?',
    text: 'Whether you are starting a new platform or nursing an old one, tell us where it hurts. A senior engineer will reply with questions, not a template.',
    action: { to: '/contact', label: 'Talk to a backend engineer' },
  },
} satisfies ServicePageContent;
