import type { ServicePageContent } from '@site/ui';
import { MobileAppDevArt } from '../art/mobile-app-dev';

export default {
  art: MobileAppDevArt,
  lead: 'Mobile apps for customers, field teams and frontline staff, designed, built, published and supported by a team that ships for both iOS and Android.',
  intro: {
    heading: 'Apps people keep using',
    paragraphs: [
      'A mobile app earns its place on a phone by saving someone time: a customer checking a policy, a technician closing a job card underground, a nurse registering a patient at a rural clinic. We design every app around those moments, test it with real users early, and build it to work on the devices and networks they actually have, including patchy connections and older handsets.',
      'Our mobile team works across both major platforms. 80% of our mobile developers build for both Android and iOS, so design decisions, code reviews and fixes are not split between two separate camps, and 70% of our Android developers are senior engineers with years of published apps behind them.',
    ],
    figures: [
      { value: '80%', label: 'of our mobile developers build for both Android and iOS' },
      { value: '70%', label: 'of our Android developers are senior' },
    ],
  },
  sections: [
    {
      kind: 'accordion',
      heading: 'Mobile services',
      items: [
        {
          title: 'Product discovery and UX design',
          body: [
            'We start by working out who will use the app, where, and what it must do on day one. Workshops, user interviews and clickable prototypes let you test the idea with real users before a line of production code is written.',
          ],
        },
        {
          title: 'App development',
          body: [
            'Native or cross-platform builds, including the backend services, APIs and admin portals that the app depends on. Every build runs through automated tests and is available to your testers after each iteration.',
          ],
        },
        {
          title: 'App store publishing',
          body: [
            'We prepare store listings, privacy declarations and screenshots, manage submissions to the App Store and Google Play, and handle review feedback, or set up private distribution for internal enterprise apps.',
          ],
        },
        {
          title: 'Modernisation and rescue',
          body: [
            'Apps that crash, drain batteries or no longer pass store review can usually be saved. We audit the code, stabilise what is there and plan a migration to current languages and frameworks in stages.',
          ],
        },
        {
          title: 'Maintenance and support',
          body: [
            'New operating system versions arrive every year. We keep your app compatible, monitor crash reports and performance, and ship fixes and features on an agreed release cycle.',
          ],
        },
      ],
    },
    {
      kind: 'features',
      columns: 4,
      tone: 'muted',
      heading: 'Platforms we build for',
      items: [
        {
          title: 'iOS and iPadOS',
          text: 'Apps for iPhone and iPad, with companion experiences on Apple Watch, Apple TV and CarPlay where they add value.',
        },
        {
          title: 'Android',
          text: 'Apps for the wide range of Android phones and tablets your users actually carry, from entry-level handsets to flagships, plus Wear OS, Android TV and Android Auto.',
        },
        {
          title: 'Enterprise and rugged devices',
          text: 'Line-of-business apps for handheld scanners and rugged devices used in warehouses, plants, mines and vehicle workshops, deployed through mobile device management.',
        },
        {
          title: 'Tablets and kiosks',
          text: 'Single-purpose apps for check-in desks, showrooms, classrooms and clinics, locked down so the device does one job well.',
        },
      ],
    },
    {
      kind: 'accordion',
      heading: 'Technologies we use',
      items: [
        {
          title: 'Native iOS',
          body: ['For apps that need the best of the Apple platform.'],
          list: [
            'Swift',
            'SwiftUI',
            'UIKit',
            'Objective-C for legacy code',
            'Xcode and TestFlight',
          ],
        },
        {
          title: 'Native Android',
          body: ['For apps that need full access to Android hardware and services.'],
          list: ['Kotlin', 'Jetpack Compose', 'Java', 'Android Studio', 'Firebase'],
        },
        {
          title: 'Cross-platform',
          body: ['For one codebase that serves both platforms.'],
          list: [
            'React Native',
            'Flutter',
            '.NET MAUI (and Xamarin migrations)',
            'Ionic',
            'Cordova',
          ],
        },
        {
          title: 'Backend and delivery',
          body: ['For the services behind the app and a reliable release pipeline.'],
          list: [
            'REST and GraphQL APIs in .NET, Node.js or Java',
            'Push notifications and offline sync',
            'Automated builds and store releases',
            'Crash reporting and analytics',
          ],
        },
      ],
    },
    {
      kind: 'links',
      tone: 'muted',
      heading: 'Native or cross-platform?',
      intro: [
        'There is no single right answer. We recommend an approach after looking at your users, your budget, the device features you need and who will maintain the app afterwards.',
      ],
      items: [
        {
          to: '/services/custom-dev/mobile-app-dev/ios',
          title: 'iOS app development',
          text: 'Native iPhone and iPad apps in Swift and SwiftUI, taken through App Store review to launch.',
        },
        {
          to: '/services/custom-dev/mobile-app-dev/android',
          title: 'Android app development',
          text: 'Native Android apps in Kotlin and Jetpack Compose, tested across the devices your users own.',
        },
        {
          to: '/services/custom-dev/mobile-app-dev/cross-platform',
          title: 'Cross-platform app development',
          text: 'One codebase for iOS and Android with React Native, Flutter, .NET MAUI or Ionic.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Planning a mobile app?',
    text: 'Share the idea, the users and the date you have in mind. We will suggest a platform approach and the scope of a first release.',
    action: { to: '/contact', label: 'Talk to our mobile team' },
  },
} satisfies ServicePageContent;
