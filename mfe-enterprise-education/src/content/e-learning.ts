import type { ServicePageContent } from '@site/ui';
import { ELearningArt } from '../art/e-learning';

export default {
  art: ELearningArt,
  lead: 'We turn textbooks, workbooks and training manuals into interactive eBooks that learners can read, watch, listen to and practise with, on any device and without a constant internet connection.',
  intro: {
    heading: 'More than a PDF on a screen',
    paragraphs: [
      'Putting a printed book online as a PDF saves on printing, but it does little for the learner. The text is hard to read on a phone, nothing moves, there is no way to check understanding, and the author never learns which chapters were read and which were skipped.',
      'Our interactive eBooks are built for learning from the start. A diagram becomes an animation, a worked example becomes a short video, and every chapter ends with questions that give instant feedback. The layout reflows to fit any screen, from a budget Android phone to a classroom display, and the books are packaged in open formats such as EPUB 3 and HTML5 rather than locked into a single app.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'What our interactive eBooks include',
      intro: [
        'Each title is built from the same set of features, switched on chapter by chapter to suit the subject and the reader.',
      ],
      items: [
        {
          title: 'Rich media',
          text: 'Video, audio, animations, image galleries and interactive diagrams placed exactly where they explain the text, not in a separate resources folder.',
        },
        {
          title: 'Offline reading',
          text: 'Download a book once over Wi-Fi and read it anywhere, during load-shedding or in areas with no signal. Progress and answers sync when the device reconnects.',
        },
        {
          title: 'Analytics',
          text: 'See which chapters are opened, how long readers spend on each page, where they stop, and how they score, by class, cohort or region.',
        },
        {
          title: 'Quizzes',
          text: 'Knowledge checks inside the chapter, with instant feedback and hints, so learners find gaps in their understanding while the topic is still fresh.',
        },
        {
          title: 'Annotation',
          text: 'Highlight passages, add notes and bookmarks, and search them later. Teachers can share notes with a whole class to guide their reading.',
        },
        {
          title: 'Read-aloud',
          text: 'Text read aloud with each sentence highlighted as it is spoken, using recorded narration or text-to-speech, for early readers, language learners and readers with visual or reading difficulties.',
        },
      ],
    },
    {
      kind: 'split',
      tone: 'dark',
      heading: 'From manuscript to published eBook',
      start: {
        kind: 'prose',
        paragraphs: [
          'You supply the source material in whatever form it exists: Word files, print-ready PDFs, InDesign packages or slide decks. Our instructional designers agree with you where media, interactions and questions will add most, our developers build the book, and your subject experts review each chapter before it is released.',
          'Finished books can be distributed through your own website or app, loaded onto school devices, or delivered as courses inside a learning management system. When the curriculum or a regulation changes, we update the affected chapters and readers receive the new edition automatically the next time they connect.',
        ],
      },
      end: {
        kind: 'stack',
        blocks: [
          { kind: 'prose', paragraphs: ['Material we regularly convert:'] },
          {
            kind: 'checks',
            columns: 1,
            items: [
              'School textbooks and workbooks',
              'Teacher guides and lesson plans',
              'Corporate training manuals',
              'Safety and induction handbooks',
              'Health worker reference guides',
              'Policy and compliance documents',
            ],
          },
        ],
      },
    },
    {
      kind: 'links',
      heading: 'Deliver eBooks through a learning platform',
      items: [
        {
          to: '/services/education/lms',
          title: 'Learning Management Systems',
          text: 'Enrol learners, set assignments and exams, and track progress across eBooks and online courses in one place.',
        },
      ],
    },
  ],
  cta: {
    heading: 'Have a book that should do more?',
    text: 'Send us a chapter of a textbook or manual you use today. We will show you what it could look like as an interactive eBook and what producing the full title would involve.',
    action: { to: '/contact', label: 'Convert a sample chapter' },
  },
} satisfies ServicePageContent;
