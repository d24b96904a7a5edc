import type { RetentionFigures } from '@site/contracts/contact/retention';
import { company } from '@site/ui';

/** "30 days", "1 day". */
const days = (n: number): string => `${n} ${n === 1 ? 'day' : 'days'}`;

/** A number of seconds in the largest whole unit: "5 days", "10 minutes", "90 seconds". */
function duration(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/** One kind of record the website keeps, and for how long. */
interface RetentionRow {
  /** Which figure of the mail-service's settings it states (the browser tests compare them). */
  figure: keyof RetentionFigures;
  record: string;
  kept: string;
}

/** The privacy notice's words. The retention periods are the mail-service's settings. */
export const privacyContent = {
  hero: {
    eyebrow: 'Privacy',
    lead: `What ${company.name} does with what you send us through this website, for how long, and how to have it returned or erased.`,
  },
  updated: 'Last updated: November 2026',
  who: {
    heading: 'Who we are',
    paragraphs: [
      `${company.legalName} ("we") is the responsible party, in the words of the Protection of Personal Information Act 4 of 2013 (POPIA), for the personal information this website collects. Our office is in ${company.address.locality}, ${company.address.region}.`,
      'This website sets no advertising or tracking cookies and uses no analytics service. The few cookies it sets keep it working: those of the contact form, which show that a message was written on this site, and one that keeps you on the same version of the site while we introduce a change.',
    ],
  },
  collect: {
    heading: 'What the contact form collects, and why',
    paragraphs: [
      'When you send a message, we receive your name, your e-mail address, the subject and the text you wrote. We use them for one purpose: to read your enquiry and to reply to it. We do not add you to a mailing list, and we do not sell or share what you send with anyone for marketing.',
      'To keep the form usable and to stop abuse, we also count how many messages come from each internet connection, and keep a one-way fingerprint (a hash) of the connection with each message, never the address itself.',
      'You do not have to give us any of this: you may phone or write to us instead. Without a name, an address and a message, though, we cannot answer you.',
    ],
  },
  recipients: {
    heading: 'Who receives it',
    paragraphs: [
      `Your message is delivered to our consultants' mailbox (${company.email}) and is read only by the people at ${company.name} who answer enquiries.`,
      'It travels through our own message service and the e-mail provider that carries our mail; they hold it only to deliver it, under an agreement that binds them to keep it confidential and secure. No one else receives it.',
    ],
  },
  retention: {
    heading: 'How long we keep it',
    intro:
      'The website keeps each message only for as long as it needs to deliver it and to answer questions about its delivery:',
    rows: (f: RetentionFigures): RetentionRow[] => [
      {
        figure: 'retentionDays',
        record: 'A delivered message: your name, e-mail address, subject and text',
        kept: `${days(f.retentionDays)} after delivery; then everything personal is removed and only its date and delivery state are kept.`,
      },
      {
        figure: 'queueLifetimeSeconds',
        record: 'A message that cannot be delivered yet',
        kept: `Retried for up to ${duration(f.queueLifetimeSeconds)}; if it still cannot be delivered, it is kept until someone here has dealt with it, then treated as a delivered message.`,
      },
      {
        figure: 'spamRetentionDays',
        record: 'A message held as probable spam',
        kept: `Deleted ${days(f.spamRetentionDays)} after it has been listed for us to check.`,
      },
      {
        figure: 'rateLimitWindowSeconds',
        record: 'The count of messages from your connection',
        kept: `Forgotten after ${duration(f.rateLimitWindowSeconds)}.`,
      },
    ],
    mailbox:
      'The copy in our mailbox is part of our correspondence with you. We keep it for as long as we are in contact about your enquiry or working together, and erase it with the rest when you ask, unless the law requires us to keep it.',
  },
  rights: {
    heading: 'A copy of your information, or its erasure',
    paragraphs: [
      'You may ask us at any time what we hold about you, for a copy of it, to correct it, or to erase it. Write to our Information Officer from the address you used on the form (so we know the request is yours) and say what you would like.',
      'We find every message sent from that address, in any letter case. For a copy, we send you all of them. For an erasure, we delete every stored copy, from the website and from our mailbox, and keep only a record that an erasure was carried out, with a one-way fingerprint of your address rather than the address itself. We reply within 30 days, and it costs you nothing.',
      'If you are not satisfied with our answer, you may complain to the Information Regulator (South Africa), inforegulator.org.za.',
    ],
    officer: 'Information Officer',
  },
  map: {
    heading: 'The map on the contact page',
    paragraphs: [
      "The contact page shows our address and a link to our office on OpenStreetMap straight away. The map itself is drawn from OpenStreetMap's map tiles, which are loaded only when you choose to show the map.",
      'When you do, your browser fetches the tiles from the servers of the OpenStreetMap Foundation, which then receive your internet address and the usual details your browser sends with any request, under their own privacy policy. Until you choose to show the map, nothing is requested from them.',
    ],
    policy: "The OpenStreetMap Foundation's privacy policy",
    policyUrl: 'https://osmfoundation.org/wiki/Privacy_Policy',
  },
  /** The line next to the form's Send button. */
  formNote: 'How we handle your message: ',
  formLink: 'privacy notice',
} as const;
