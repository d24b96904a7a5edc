import type { ServicePageContent } from '@site/ui';
import { AndroidArt } from '../art/android';

export default {
  art: AndroidArt,
  lead: 'Native Android apps in Kotlin and Jetpack Compose for the phones, tablets and rugged devices your users carry, tested on real hardware and published on Google Play.',
  intro: {
    heading: 'Built for the devices people really use',
    paragraphs: [
      'Across Africa, Android runs on the large majority of smartphones, from flagship handsets to entry-level devices with little memory and a data bundle that has to last the month. In Europe it shares the market with iOS. An Android app for these audiences has to be fast on modest hardware, careful with data and battery, and usable when the network drops.',
      'We design for that from the start: lean screens, offline storage with background sync, efficient image handling and builds tested on a device lab that mirrors your user base. The result is an app that feels quick on a new Samsung and still works on the three-year-old handset of a field worker in a rural district.',
      '70% of our Android developers are senior engineers, so architecture, performance and security decisions are made by people who have shipped and maintained Android apps for years.',
    ],
    figures: [
      { value: '70%', label: 'of our Android developers are senior' },
      { value: '80%', label: 'of our mobile developers also build for iOS' },
    ],
  },
  sections: [
    {
      kind: 'features',
      columns: 3,
      heading: 'Where your app can run',
      items: [
        {
          title: 'Phones',
          text: 'Every screen size and density, from budget devices to foldables, on the Android versions your users actually run.',
        },
        {
          title: 'Tablets',
          text: 'Adaptive layouts for tablets used in classrooms, clinics, showrooms and on the shop floor.',
        },
        {
          title: 'Wear OS',
          text: 'Watch apps and tiles for notifications, lone-worker check-ins and health readings.',
        },
        {
          title: 'Android TV',
          text: 'Lean-back apps for media, digital signage and training content on the big screen.',
        },
        {
          title: 'Android Auto',
          text: 'Driver-safe experiences for navigation, fleet and messaging apps on the car’s display.',
        },
        {
          title: 'Rugged enterprise devices',
          text: 'Apps for Zebra, Honeywell and similar handhelds with barcode scanners, deployed and managed through Android Enterprise.',
        },
      ],
    },
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'Languages and tools',
      items: [
        {
          title: 'Kotlin',
          text: 'Google’s preferred language for Android and our default for new work, with coroutines for smooth, responsive apps.',
        },
        {
          title: 'Jetpack Compose',
          text: 'Modern declarative UI that speeds up delivery and keeps design consistent across phones, tablets and Wear OS.',
        },
        {
          title: 'Java',
          text: 'Still found in many established apps. We maintain Java codebases and move them to Kotlin gradually, module by module.',
        },
      ],
    },
    {
      kind: 'checks',
      columns: 3,
      heading: 'What our Android team builds',
      items: [
        'Warehouse and stock-take apps',
        'Mine and plant inspection apps',
        'Offline data collection for health programmes',
        'Mobile banking and USSD companion apps',
        'Driver and fleet apps',
        'Sales and merchandising apps',
        'Learner apps for low-cost tablets',
        'Kiosk and single-purpose apps',
        'Customer loyalty and service apps',
      ],
    },
    {
      kind: 'prose',
      tone: 'muted',
      heading: 'Testing and release',
      paragraphs: [
        'Android fragmentation is real, so we test on a mix of physical devices and cloud device farms, with automated UI tests running on every build. Releases go out through Google Play’s internal, closed and open testing tracks and then a staged roll-out, so a problem reaches a few hundred users rather than all of them.',
        'For internal apps we use managed Google Play and your mobile device management platform, so IT can push updates to a fleet of company devices overnight. After launch we watch Android vitals, crash reports and store reviews, and keep the app on the target API level Google Play requires each year.',
      ],
    },
  ],
  cta: {
    heading: 'Need an app that works on every Android device your users own?',
    text: 'Share what you know about your users: the handsets they carry, the networks they rely on, the jobs they do in the app. We will propose an architecture and a first release that fits them.',
    action: { to: '/contact', label: 'Plan your Android app' },
  },
} satisfies ServicePageContent;
