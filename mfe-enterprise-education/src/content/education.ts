import type { ServicePageContent } from '@site/ui';
import { EducationArt } from '../art/education';

export default {
  art: EducationArt,
  lead: 'Learning management and interactive e-learning for schools, training providers and non-profits, built for learners on every kind of device and connection.',
  intro: {
    heading: 'Technology in service of teaching',
    paragraphs: [
      'Good teaching does not need complicated software, but it does need software that stays out of the way. Our education practice builds learning platforms that teachers can run without an IT department: courses and learning paths that are quick to set up, quizzes and exams that mark themselves, and dashboards that show who is progressing and who needs a hand.',
      'Many of the learners our clients serve read on an entry-level phone over an expensive or patchy connection. We design for them first: content that downloads once and works offline, pages that load quickly on slow networks, and reading aids such as read-aloud and adjustable text.',
    ],
  },
  pages: {
    heading: 'Education services',
    intro: [
      'A school may start with one of these and add the other later: the platform that runs courses and assessment, and the interactive books learners read inside it or on their own.',
    ],
  },
  sections: [
    {
      kind: 'checks',
      columns: 2,
      heading: 'Built for the way learning happens',
      intro: [
        'Every platform we deliver is tried with real learners and teachers before launch, on the devices and connections they actually have.',
      ],
      items: [
        'Offline reading and sync when a connection returns',
        'Accessible to learners who use screen readers',
        'Progress reports for teachers, funders and parents',
        'Content in several languages from one course',
        'Enrolment in bulk from a spreadsheet or school system',
        'Hosting sized to term-time peaks and quiet holidays',
      ],
    },
  ],
  cta: {
    heading: 'Planning a course, a platform or a digital textbook?',
    text: 'Tell us who your learners are and how they connect. We will suggest the simplest platform that reaches them.',
    action: { to: '/contact', label: 'Talk to our education team' },
  },
} satisfies ServicePageContent;
