export const contactContent = {
  hero: {
    eyebrow: 'Contact',
    lead: 'Tell us what you need. A consultant reads every message and replies within one working day.',
  },
  details: {
    heading: 'Visit or reach us',
    address: 'Office',
    hours: 'Opening hours',
    timeZone: 'Time zone',
    email: 'Email',
    social: 'Follow us',
    mapLink: 'Open the location in OpenStreetMap',
  },
} as const;
