import type { ServicePageContent } from '@site/ui';
import { CrossPlatformArt } from '../art/cross-platform';

export default {
  art: CrossPlatformArt,
  lead: 'One codebase that runs on iOS and Android, built with the framework that suits your app, your budget and the team that will maintain it.',
  intro: {
    heading: 'One codebase, two platforms',
    paragraphs: [
      'A cross-platform app shares most of its code between iPhone and Android. For many business apps that means a first release sooner, one team instead of two, and every fix and feature reaching both platforms on the same day. Done well, users cannot tell the difference from a native app.',
      'The framework matters more than the label. Each one makes different trade-offs in performance, look and feel, access to device features and the skills your own developers need. We have delivered apps in all of the major frameworks, and we recommend one only after we understand your requirements and who will look after the app in five years.',
    ],
  },
  sections: [
    {
      kind: 'accordion',
      tone: 'muted',
      heading: 'The frameworks we use, and when to choose each',
      items: [
        {
          title: 'React Native',
          body: [
            'JavaScript or TypeScript with React, rendering real native components. It shares skills and sometimes code with a React web application, and is backed by Meta and a very large community.',
            'Choose it when your organisation already builds for the web in React, when you want a native look and feel on each platform, or when a web and mobile product must evolve together.',
          ],
        },
        {
          title: 'Flutter',
          body: [
            'Google’s toolkit, written in Dart, drawing every pixel itself for a consistent, highly branded interface and smooth animation on both platforms, including lower-end Android devices.',
            'Choose it when a custom design must look identical everywhere, when performance of the interface is a priority, or when you are starting fresh without an existing web stack to reuse.',
          ],
        },
        {
          title: 'Xamarin and .NET MAUI',
          body: [
            'C# and .NET on mobile. Microsoft ended support for Xamarin in May 2024, and its successor, .NET MAUI, now covers iOS, Android, Windows and macOS from one project.',
            'Choose it when your developers and backend are in .NET, when the app also needs a Windows desktop version, or when an existing Xamarin app must be migrated to .NET MAUI, which we do in planned stages.',
          ],
        },
        {
          title: 'Ionic',
          body: [
            'Web technology (Angular, React or Vue) packaged as a mobile app with Capacitor, with a library of mobile-styled components. One codebase can also ship as a progressive web app.',
            'Choose it when you need an app, a PWA and a website from the same code, when your team are web developers, or for internal and data-capture apps where speed of delivery matters more than native polish.',
          ],
        },
        {
          title: 'Apache Cordova',
          body: [
            'The original way to wrap a web application in a native shell. It still runs many established enterprise apps, though new projects are better served by Capacitor or the frameworks above.',
            'Choose it when you have a working Cordova app to maintain, or when you need a careful path from Cordova to Capacitor or Ionic without rewriting the whole application.',
          ],
        },
      ],
    },
    {
      kind: 'features',
      columns: 3,
      heading: 'What a shared codebase gives you',
      items: [
        {
          title: 'Lower build cost',
          text: 'Typically 60 to 80 percent of the code is shared, which reduces the effort of a two-platform launch considerably.',
        },
        {
          title: 'Features in step',
          text: 'Both platforms get each release together, so support staff and training material never describe two different apps.',
        },
        {
          title: 'One team to manage',
          text: 'A single backlog, a single test plan and one set of developers who understand the whole app.',
        },
      ],
    },
    {
      kind: 'checks',
      tone: 'muted',
      columns: 2,
      heading: 'When native is the better call',
      intro: [
        'Cross-platform is not always the right answer, and we will say so. We usually recommend separate native apps in Swift and Kotlin when:',
      ],
      items: [
        'The app depends on heavy graphics, augmented reality or real-time audio and video',
        'It uses new platform features from launch day',
        'Hardware integration is deep: Bluetooth devices, scanners, sensors',
        'Only one platform matters to your users',
        'Battery life and app size are critical',
        'Separate iOS and Android teams already exist',
      ],
    },
    {
      kind: 'prose',
      heading: 'Native modules where they count',
      paragraphs: [
        'Where only part of an app needs native performance, a hybrid approach often works best: a cross-platform app with a few native modules written in Swift and Kotlin, for example for a Bluetooth scanner or a camera pipeline. Our iOS and Android specialists build those modules alongside the cross-platform team, so the app keeps one codebase for everything else.',
        'The same applies in reverse. An established native app can adopt a shared module for a new feature, letting both platforms receive it together without a rewrite.',
      ],
    },
  ],
  cta: {
    heading: 'Not sure which framework fits?',
    text: 'Describe your app, your users and your current technology. We will recommend native or cross-platform, and which framework, with the reasons set out plainly.',
    action: { to: '/contact', label: 'Get a framework recommendation' },
  },
} satisfies ServicePageContent;
