/**
 * Company facts, in one place. The spec does not name the company: the name, logo text, address, phone number and
 * links below are placeholders, and replacing them here changes them everywhere on the site.
 */
export const company = {
  name: 'Highveld Digital',
  legalName: 'Highveld Digital Solutions (Pty) Ltd',
  tagline: 'IT solutions and consulting',
  foundingYear: 2008,
  email: 'hello@highveld-digital.co.za',
  /**
   * The information officer POPIA asks every responsible party to register with the Information
   * Regulator: the person a visitor writes to for a copy or the erasure of what they sent.
   */
  informationOfficer: {
    name: 'Thandiwe Mokoena',
    role: 'Information Officer',
    email: 'privacy@highveld-digital.co.za',
  },
  address: {
    street: 'Building 3, Highveld Office Park, 12 Embankment Road',
    locality: 'Centurion',
    region: 'Gauteng',
    postalCode: '0157',
    country: 'South Africa',
    countryCode: 'ZA',
  },
  /** The office, for the map and the structured data. */
  location: { lat: -25.8588, lng: 28.1891 },
  hours: {
    days: 'Monday to Friday',
    opens: '08:00',
    closes: '17:00',
    label: 'Monday to Friday, 8am to 5pm',
  },
  /**
   * The office's time, worded one way everywhere: South Africa keeps UTC+02:00 all year (the same
   * offset as Central Africa Time), and clients know it as SAST.
   */
  timeZone: { abbreviation: 'SAST', offset: 'UTC+02:00', label: 'SAST (UTC+02:00)' },
  /** The office line, as dialled from abroad (E.164) and as shown on the pages. */
  phone: { e164: '+27120040150', display: '+27 12 004 0150' },
  regions: ['Africa', 'Europe'],
  sectors: [
    'Manufacturing',
    'Mining',
    'Education',
    'Health',
    'Banking',
    'Petroleum',
    'Non-profit',
    'Motor industry',
  ],
  industriesServed: 20,
  social: [
    { name: 'LinkedIn', url: 'https://www.linkedin.com/company/highveld-digital' },
    { name: 'X', url: 'https://x.com/highvelddigital' },
    { name: 'Facebook', url: 'https://www.facebook.com/highvelddigital' },
    { name: 'GitHub', url: 'https://github.com/highveld-digital' },
  ],
} as const;

export type Company = typeof company;

/** One line of the postal address, as shown in the footer and on the contact page. */
export const formatAddress = (a = company.address): string =>
  `${a.street}, ${a.locality}, ${a.region}, ${a.postalCode}, ${a.country}`;

/** `tel:` link of the office line. */
export const phoneHref = (p = company.phone): string => `tel:${p.e164}`;

/** Whole years since the company was founded, counted from `today`. */
export const yearsSinceFounding = (today: Date = new Date()): number =>
  today.getFullYear() - company.foundingYear;

/** A link that opens the office in a map service, for when the embedded map cannot load. */
export const mapLink = (loc = company.location): string =>
  `https://www.openstreetmap.org/?mlat=${loc.lat}&mlon=${loc.lng}#map=18/${loc.lat}/${loc.lng}`;
