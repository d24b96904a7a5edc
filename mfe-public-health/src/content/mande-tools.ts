import type { ServicePageContent } from '@site/ui';
import { MandEToolsArt } from '../art/mande-tools';

export default {
  art: MandEToolsArt,
  lead: 'Paper registers and spreadsheets slow programmes down and hide problems until a report is due. Our digital M\u00a0&\u00a0E tools capture clean data at the point of care and put it in front of the people who act on it.',
  intro: {
    heading: 'From clipboards to real-time evidence',
    paragraphs: [
      'Most health programmes we meet still collect part of their data on paper: a screening form completed at a clinic, a register kept at a community site, a referral slip carried by the patient. Each sheet is later typed into a spreadsheet, sometimes weeks after the event, and every transfer is a chance for a lost page, a misread digit or a double count.',
      'We build and configure mobile and web tools that replace those steps. Field workers and clinicians capture data once, on a phone, tablet or laptop, with or without a network connection. Built-in validation catches mistakes while the person is still there to correct them, and records synchronise to a central database as soon as a connection allows. Programme managers see results the same day, not at the end of the quarter.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'Five reasons to move M\u00a0&\u00a0E from paper to digital',
      intro: [
        'Donors and ministries increasingly expect near real-time reporting. Digital tools make that possible without adding work for the people in the field.',
      ],
      items: [
        {
          title: 'Better data quality',
          text: 'Required fields, ranges, skip logic and duplicate checks stop errors at the point of entry instead of weeks later during data cleaning.',
        },
        {
          title: 'Faster decisions',
          text: 'Records reach the central database within minutes of synchronising, so supervisors can follow up on a missed visit or a stock-out the same week.',
        },
        {
          title: 'Lower cost per record',
          text: 'No printing, transport of forms or double data entry. Teams that switch typically free several days a month previously spent on transcription.',
        },
        {
          title: 'Accountability and audit trails',
          text: 'Every record carries who captured it, when and where, and every change is logged, which makes donor audits and data verification far simpler.',
        },
        {
          title: 'Privacy and security',
          text: 'Patient data is encrypted on the device and in transit, access is role-based, and nothing sits in an unlocked filing cabinet or on a lost USB stick.',
        },
      ],
    },
    {
      kind: 'checks',
      columns: 3,
      heading: 'Tools we build and configure',
      intro: [
        'Each tool is configured to your indicators and workflows, and all of them feed the same database, so a referral captured in one tool shows up in the follow-up list of another.',
      ],
      items: [
        'Screening tools',
        'Surveys',
        'Event feedback',
        'Conference polls',
        'Registers',
        'Referrals',
        'Checklists',
        'Follow up and review',
        'Emergency alerts',
      ],
    },
    {
      kind: 'prose',
      tone: 'muted',
      heading: 'How we roll out digital tools',
      paragraphs: [
        'We start with a short review of your current forms, indicators and reporting calendar, and agree which tools come first. A pilot with one district or site follows, usually within six weeks, so field teams can shape the forms before they are rolled out widely. We train supervisors to train others, provide printed quick guides for the field, and keep a help desk open during the first months.',
        'The tools run on the open standards most ministries already use, including DHIS2-compatible exports, and work on low-cost Android devices. When the programme ends, your data and configuration stay yours.',
      ],
    },
  ],
  cta: {
    heading: 'Still running your programme on paper forms?',
    text: 'Send us one of the forms or registers your teams fill in today. We will show you how it would work as a digital tool and what a pilot would involve.',
    action: { to: '/contact', label: 'Plan a pilot' },
  },
} satisfies ServicePageContent;
