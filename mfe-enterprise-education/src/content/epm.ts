import type { CallToActionContent, FeatureItem, LinkCardItem, Paragraphs } from '@site/shared';

export const epmContent = {
  lead: 'When projects live in separate spreadsheets, nobody can say which ones matter most, who is overbooked or what the portfolio will cost this year. Microsoft Enterprise Project Management brings projects, people and money into one view, and we set it up to match how your organisation delivers.',
  intro: {
    heading: 'Enterprise Project Management on Microsoft',
    paragraphs: [
      'Enterprise Project Management (EPM) is the discipline of running all of an organisation’s projects as one portfolio: choosing the right ones, staffing them without burning people out, tracking progress and cost, and reporting honestly to the executive. Microsoft’s project tools support that discipline, but only once they are configured around your stage gates, your approval rules and the reports your board actually reads.',
      'We have implemented Microsoft project and portfolio tools for capital projects in mining and petroleum, plant upgrades in manufacturing, IT programmes in banking and donor-funded programmes at non-profits. Whether you run ten projects or four hundred, the aim is the same: one source of truth that project managers keep current because it saves them work.',
    ] satisfies Paragraphs,
  },
  platforms: {
    heading: 'The right Microsoft platform for your portfolio',
    intro: [
      'Microsoft offers more than one route to EPM, and the choice depends on where your data may be hosted, how complex your schedules are and which licences you already hold. We help you choose, and we help existing customers plan a move as Microsoft steers its cloud project tools towards Planner and Project for the web.',
    ] satisfies Paragraphs,
    items: [
      {
        title: 'Project Online',
        text: 'Cloud-based portfolio and project management built on SharePoint Online, with enterprise resource pools, timesheets and portfolio analysis for organisations that want it hosted by Microsoft.',
      },
      {
        title: 'Project Server',
        text: 'The on-premises option for organisations that must keep project data in their own data centre. We install, upgrade and configure it, and support farms already in production.',
      },
      {
        title: 'Project for the web',
        text: 'A lighter, collaborative way to plan work in Microsoft 365, now part of Planner’s premium plans, extended with Power Apps, Dataverse and Power Automate where you need more structure.',
      },
    ] satisfies FeatureItem[],
  },
  capabilities: {
    heading: 'What we configure and build',
    items: [
      {
        title: 'Portfolios',
        text: 'Business drivers, scoring and prioritisation so the executive can compare proposals on value, risk and cost, and approve the mix that fits the budget.',
      },
      {
        title: 'Resource management',
        text: 'An enterprise resource pool with skills, capacity and cost rates, so managers can see who is overbooked before a deadline slips, not after.',
      },
      {
        title: 'Timesheets',
        text: 'Weekly time capture against project tasks and non-project work, with approval routing and exports to payroll or finance where actual hours drive billing.',
      },
      {
        title: 'Power BI reporting',
        text: 'Portfolio dashboards, project status reports, resource heat maps and cost-to-date views in Power BI, refreshed automatically from your project data.',
      },
      {
        title: 'PMO set-up',
        text: 'Project templates, stage gates, status definitions and roles for a new or growing project management office, documented so the process outlives any one person.',
      },
      {
        title: 'Schedules and integration',
        text: 'Standard schedule templates, baselines and custom fields, connected to SharePoint project sites and, where needed, to your ERP for budgets and actual costs.',
      },
    ] satisfies FeatureItem[],
  },
  approach: {
    heading: 'How we implement EPM',
    paragraphs: [
      'We begin with your project lifecycle rather than with the software. In a short series of workshops we map how projects are proposed, approved, planned, reported and closed, and agree which reports the executive and the PMO need each month. That becomes the configuration design.',
      'We then configure the platform in stages: first schedules and status reporting, then resources and timesheets, then portfolio selection. Each stage goes live with a pilot group before it is rolled out, and project managers, team members and executives are trained on what they each need and nothing more. After go-live we can stay on as your support partner.',
    ] satisfies Paragraphs,
  },
  related: {
    heading: 'Related enterprise services',
    items: [
      {
        to: '/services/enterprise/sharepoint',
        title: 'Microsoft SharePoint',
        text: 'Project sites, document libraries and approval workflows that sit alongside your project schedules.',
      },
      {
        to: '/services/enterprise/enterprise-support',
        title: 'Enterprise Support',
        text: 'A dedicated team to keep your EPM platform running and your PMO supported after go-live.',
      },
    ] satisfies LinkCardItem[],
  },
  cta: {
    heading: 'Want one view of every project?',
    text: 'Tell us how many projects you run, which tools you use today and what your executive wants to see. We will suggest the Microsoft platform and a phased plan that fits.',
    action: { to: '/contact', label: 'Discuss your EPM needs' },
  } satisfies CallToActionContent,
} as const;
