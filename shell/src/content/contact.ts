export const contactContent = {
  hero: {
    eyebrow: 'Contact',
    lead: 'Tell us what you need. A consultant reads every message and replies within one working day.',
  },
  form: {
    heading: 'Send us a message',
    intro:
      'Describe your project, question or challenge. The more context you give, the more useful our first reply will be. If you would rather talk it through, call us during office hours and ask for a consultant.',
    required: 'All fields are required..',
    honeypot: 'Leave this field empty',
    send: 'Send message',
    sending: 'Sending…',
    another: 'Write another message',
    failed:
      'Your message was not sent. Please check your connection and press Send again; what you typed is still here.',
    failedServer:
      'Your message was not sent because our message service is not responding. Please try again in a few minutes; what you typed is still here.',
    rejected:
      'Your message was not sent. Please correct the fields marked below and send it again.',
    rateLimited: (wait: string) =>
      `Your message was not sent: several messages have come from your connection in a short time. Please try again ${wait}.`,
    /** After a message that could not be sent (a limit, an outage): the ways that still work. */
    otherWays: 'You can also write to us at',
    orCall: 'or call',
    sentDetail:
      'Thank you. We have received it and will reply to you by email within one working day.',
    sendAgain:
      'Your message has not been sent yet: for your security, please press Send message once more. What you typed is still here.',
    refused:
      'Your message was not sent: messages can only be sent from the contact form on this website. Please write it there and send it again.',
    /** Follows the message's hint ("Up to 5000 characters.") once the page's code is running. */
    charactersUsed: (used: number) => `${used} used so far.`,
  },
  details: {
    heading: 'Visit or reach us',
    address: 'Office',
    hours: 'Opening hours',
    timeZone: 'Time zone',
    phone: 'Phone',
    email: 'Email',
    social: 'Follow us',
    mapLink: 'Open the location in OpenStreetMap',
  },
  map: {
    heading: 'Find our office',
    label: 'Map of our office in Centurion',
    loading: 'Loading the map…',
    show: 'Show the map',
    note: 'The map is drawn by OpenStreetMap: showing it loads its map tiles from their servers, which then see your internet address.',
    failed: 'The map could not be loaded just now.',
    attribution: '© OpenStreetMap contributors',
  },
} as const;

/** "in about 3 minutes", from a Retry-After in seconds. */
export function retryWording(seconds: number | null): string {
  if (seconds === null) return 'in a few minutes';
  if (seconds < 90) return `in ${Math.max(1, Math.round(seconds))} seconds`;
  return `in about ${Math.round(seconds / 60)} minutes`;
}
