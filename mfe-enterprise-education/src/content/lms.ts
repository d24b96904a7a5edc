import type { ServicePageContent } from '@site/ui';
import { LmsArt } from '../art/lms';

export default {
  art: LmsArt,
  lead: 'Our web-based learning management system gives teachers, trainers and programme staff one place to publish courses, set assessments, enrol learners and see who is progressing and who needs help.',
  intro: {
    heading: 'One platform for teaching, assessing and tracking',
    paragraphs: [
      'Learning rarely happens in one place any more. Course notes sit in shared folders, quizzes run on a free online tool, marks live in a spreadsheet and enrolment is handled by e-mail. Each piece works on its own, but nobody can see the whole picture of a learner’s progress, and staff spend hours moving information between them.',
      'Our LMS runs in any modern browser on a laptop, tablet or phone, with nothing to install. We configure it around your courses, your assessment rules and your reporting needs, brand it as your own, and host it for you or deploy it on your infrastructure. Pages are kept light so that learners on mobile data or a slow school connection can still work through a lesson.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'dark',
      columns: 3,
      heading: 'Built for three kinds of organisation',
      items: [
        {
          title: 'Educational institutions',
          text: 'Schools, colleges and training academies that want to blend classroom teaching with online lessons, homework and assessment, and report progress to parents, sponsors or accreditation bodies.',
        },
        {
          title: 'Educational software companies',
          text: 'Edtech businesses that need a dependable learning platform under their own brand, with an API to connect their content, apps and billing, without building an LMS from scratch.',
        },
        {
          title: 'Non-profits',
          text: 'Organisations training volunteers, community health workers or young people across many sites, who need to prove to donors how many learners completed a programme and what they achieved.',
        },
      ],
    },
    {
      kind: 'features',
      columns: 3,
      heading: 'Features of our LMS',
      intro: [
        'Six capabilities carry most of the teaching, assessing and tracking. Each is configurable, so you switch on what your programmes need and keep the interface simple for everyone else.',
      ],
      items: [
        {
          title: 'Learning paths',
          text: 'Sequence courses and modules into paths by grade, role or programme, with prerequisites that unlock the next step once the previous one is complete.',
        },
        {
          title: 'Content creation',
          text: 'Build lessons in the browser from text, images, video, audio and documents, reuse them across courses, and import existing SCORM packages.',
        },
        {
          title: 'Quizzes',
          text: 'Multiple choice, matching, short answer and true-or-false questions, drawn from question banks, with instant feedback and automatic marking.',
        },
        {
          title: 'Progress dashboards',
          text: 'Learners see what is done and what is next; teachers and managers see completion, scores and inactivity by class, cohort or site at a glance.',
        },
        {
          title: 'Assignments and exams',
          text: 'Set assignments with due dates and rubrics, accept file uploads, run timed exams with randomised questions, and moderate marks before release.',
        },
        {
          title: 'User enrolment',
          text: 'Enrol learners one at a time, in bulk from a spreadsheet, by self-registration with an access code, or automatically from your student information system.',
        },
      ],
    },
    {
      kind: 'split',
      tone: 'muted',
      heading: 'What the people using it need',
      intro: [
        'We design the LMS around the day-to-day needs we hear from the people who run learning. These are typical of them, and beside them is what the platform does about it.',
      ],
      start: {
        kind: 'quotes',
        items: [
          {
            quote:
              'I need to see which learners have stopped logging in by week three, not find out from the exam results at the end of term.',
            name: 'Head of Academics',
            role: 'Independent school, Gauteng',
          },
          {
            quote:
              'Our content is our product. The platform has to carry our brand, connect to our app and simply stay up during exam season.',
            name: 'Product Manager',
            role: 'Educational software company',
          },
          {
            quote:
              'Our facilitators work in rural sites with patchy signal. Lessons must load on a basic phone, and completions must reach our donor report without retyping.',
            name: 'Programme Coordinator',
            role: 'Youth skills non-profit',
          },
        ],
      },
      end: {
        kind: 'side-list',
        heading: 'Also in the platform',
        items: [
          'Inactivity alerts that flag learners who have stopped logging in, by class, cohort or site',
          'Certificates on completion, with every attempt and result kept for audits, accreditation and donor reports',
          'Separate roles for learners, teachers, administrators and sponsors',
          'Single sign-on with Microsoft 365 or Google Workspace accounts',
          'Your own branding, domain and an API for your apps, content and billing',
          'Lessons light enough for a basic phone on patchy signal, and offline-friendly downloads',
          'Scheduled reports and exports to Excel and Power BI',
        ],
      },
    },
    {
      kind: 'prose',
      heading: 'How we set up your LMS',
      paragraphs: [
        'We start with a short discovery: your courses, your learners, how you assess and what you report. Within a few weeks you have a configured, branded platform with one or two real courses loaded, and a pilot group of teachers and learners using it. Their feedback shapes the full rollout.',
        'We migrate existing content and learner records, train administrators and course authors, and provide support once you are live. Your courses, questions and results remain yours, and can be exported at any time.',
      ],
    },
    {
      kind: 'links',
      tone: 'muted',
      heading: 'Add interactive eBooks',
      items: [
        {
          to: '/services/education/e-learning',
          title: 'e-Learning',
          text: 'Interactive eBooks with rich media, quizzes and offline reading that sit alongside the courses in your LMS.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Planning a new learning platform?',
    text: 'Send us one of your courses, or just its outline. We will show you the LMS set up with it, so your teachers can judge it on their own material.',
    action: { to: '/contact', label: 'Request an LMS demo' },
  },
} satisfies ServicePageContent;
