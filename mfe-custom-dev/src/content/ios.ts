import type { ServicePageContent } from '@site/ui';
import { IosArt } from '../art/ios';

export default {
  art: IosArt,
  lead: 'Native apps for iPhone, iPad and the wider Apple ecosystem, written in Swift, designed to Apple’s Human Interface Guidelines and taken all the way through App Store review.',
  intro: {
    heading: 'Why build natively for iOS',
    paragraphs: [
      'iPhone users tend to update quickly, spend more in apps and expect an experience that feels at home on their device. In banking, motor retail and executive reporting in particular, the iOS audience is often the one a client most needs to impress. A native app gives them the gestures, accessibility features, widgets and performance they already know from Apple’s own apps.',
      'Building natively also gives full, early access to Apple’s frameworks: Face ID and Touch ID, Apple Pay, HealthKit, Core Location, the camera and on-device machine learning. When Apple announces a new capability each June, a native app can adopt it in the next release rather than waiting for a cross-platform framework to catch up.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'Devices we design for',
      intro: [
        'Most projects start with iPhone. We plan from the outset for the other Apple devices your users own, so that adding them later is an extension, not a rewrite.',
      ],
      items: [
        {
          title: 'iPhone',
          text: 'The core experience, designed for one-handed use, every current screen size and Dynamic Type.',
        },
        {
          title: 'iPad',
          text: 'Layouts that use the larger screen properly, with split view, keyboard shortcuts and Apple Pencil support where it helps.',
        },
        {
          title: 'Apple Watch',
          text: 'Glanceable companion apps and complications for alerts, approvals, workouts and health readings.',
        },
        {
          title: 'Apple TV',
          text: 'Big-screen apps for media, training content and dashboards in reception areas and control rooms.',
        },
        {
          title: 'CarPlay',
          text: 'Safe, template-based in-car experiences for navigation, fleet, parking and audio apps.',
        },
        {
          title: 'Mac',
          text: 'iPad apps brought to macOS with Mac Catalyst when your users also work at a desk.',
        },
      ],
    },
    {
      kind: 'features',
      columns: 3,
      heading: 'Languages and frameworks',
      items: [
        {
          title: 'Swift',
          text: 'Our language for all new iOS work: safe, fast and fully supported by Apple, with modern concurrency for responsive apps.',
        },
        {
          title: 'SwiftUI',
          text: 'Declarative interfaces that share code across iPhone, iPad, Watch and TV, combined with UIKit where a screen needs finer control.',
        },
        {
          title: 'Objective-C for legacy',
          text: 'Many established apps still carry Objective-C. We maintain it, and migrate it to Swift screen by screen without stopping releases.',
        },
      ],
    },
    {
      kind: 'checks',
      tone: 'muted',
      columns: 3,
      heading: 'What our iOS team builds',
      intro: [
        'Typical engagements range from a focused first release in three to four months to long-running product teams.',
      ],
      items: [
        'Mobile banking and payment apps',
        'Customer self-service apps',
        'Field inspection and job-card apps',
        'Executive and sales dashboards',
        'Health and wellness apps with HealthKit',
        'Dealer and vehicle service apps',
        'Learning and training apps',
        'Internal apps for Apple Business Manager',
        'Apple Watch and widget extensions',
      ],
    },
    {
      kind: 'prose',
      heading: 'From Xcode to the App Store',
      paragraphs: [
        'We test on real devices as well as simulators, automate builds and UI tests, and give your stakeholders new versions through TestFlight after every iteration. Before submission we complete the privacy nutrition labels, check the app against the App Store Review Guidelines and prepare the listing, so approval is routine rather than a gamble.',
        'Internal apps can be distributed privately through Apple Business Manager and your mobile device management platform. After launch we monitor crashes and performance, and we prepare your app for each new iOS version before it reaches your users.',
      ],
    },
  ],
  cta: {
    heading: 'Ready to put your service on the iPhone?',
    text: 'Who will use the app, and what must it let them do on day one? With those two answers we can suggest a first release and the iPhone and iPad models worth supporting.',
    action: { to: '/contact', label: 'Plan your iOS app' },
  },
} satisfies ServicePageContent;
