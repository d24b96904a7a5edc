import type { ServicePageContent } from '@site/ui';
import { BiProcessControlArt } from '../art/bi-process-control';

export default {
  art: BiProcessControlArt,
  lead: 'Plants, mines and refineries record thousands of tags every second, yet shift reports are still compiled by hand. We connect historians, SCADA and MES systems to analytics that show operators and engineers where the process is drifting while there is still time to act.',
  intro: {
    heading: 'From raw tags to process insight',
    paragraphs: [
      'Operational data is different from business data. It arrives continuously, at high frequency, from instruments that drift and fail; it is keyed by tag name rather than customer number; and it only makes sense alongside context such as the product being run, the shift on duty and the state of the equipment. Most process historians are excellent at storing this data and poor at explaining it.',
      'Our process-control BI sits between the control layer and the people who run the operation. We read from historians, SCADA and MES systems, add production, maintenance and laboratory context, and present it as views that answer practical questions: why throughput fell on night shift, which mill liner is wearing fastest, which batches will fail the quality specification.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'What we measure and visualise',
      items: [
        {
          title: 'Statistical process control',
          text: 'Control charts, capability indices (Cp, Cpk) and Western Electric rules applied automatically, so a shift in the mean is flagged before product goes out of specification.',
        },
        {
          title: 'Overall equipment effectiveness',
          text: 'OEE broken into availability, performance and quality, with downtime reasons captured consistently and losses ranked so improvement teams work on the biggest ones first.',
        },
        {
          title: 'Alarm analysis',
          text: 'Alarm rates per operator, standing and chattering alarms and flood periods, benchmarked against ISA-18.2 and EEMUA 191 guidance to support rationalisation.',
        },
        {
          title: 'Quality and laboratory results',
          text: 'LIMS and in-line analyser results linked to the process conditions that produced them, for faster root-cause analysis and batch release.',
        },
        {
          title: 'Energy and utilities',
          text: 'Power, water, steam and fuel consumption per tonne or per unit produced, tracked against targets and tariffs.',
        },
        {
          title: 'Shift and production reporting',
          text: 'Automated shift logs, daily production reports and plan-versus-actual figures that reach supervisors at handover, not the following afternoon.',
        },
      ],
    },
    {
      kind: 'features',
      tone: 'dark',
      columns: 3,
      heading: 'Industries we know from the inside',
      intro: [
        'We have worked with operational data in manufacturing, mining and petroleum, and we speak the language of the engineers we work alongside.',
      ],
      items: [
        {
          title: 'Manufacturing',
          text: 'Line-level OEE, changeover analysis, scrap and rework tracking, and traceability from raw material lot to finished goods, including automotive component suppliers.',
        },
        {
          title: 'Mining',
          text: 'Crusher and mill throughput, plant recovery, reagent consumption, conveyor availability and fleet data from load-and-haul operations.',
        },
        {
          title: 'Petroleum',
          text: 'Unit performance and yields in refineries, tank and pipeline inventory, flaring and emissions reporting, and integrity monitoring of rotating equipment.',
        },
      ],
    },
    {
      kind: 'checks',
      columns: 3,
      heading: 'Systems we connect to',
      items: [
        'AVEVA PI and Wonderware historians',
        'AspenTech IP.21',
        'Honeywell PHD',
        'Canary and Ignition',
        'Siemens WinCC and Rockwell FactoryTalk',
        'OPC UA, OPC DA and MQTT',
        'MES and LIMS platforms',
        'SAP PM and maintenance systems',
        'Power BI, Grafana and Seeq',
      ],
    },
    {
      kind: 'prose',
      tone: 'muted',
      heading: 'How we work on site',
      paragraphs: [
        'We respect the boundary between control and business networks. Data is read, never written, through a historian replica or a demilitarised zone designed with your control engineers, in line with the Purdue model and your site security standards.',
        'A typical engagement starts with one production area and a handful of agreed metrics. Within a few weeks the first views are in the control room and on the supervisors’ screens; we then extend to further areas and sites using the same data model, so figures can be compared across the operation.',
      ],
    },
  ],
  cta: {
    heading: 'Let’s look at your process data together',
    text: 'Share the unit or line that keeps you up at night. We will show what your existing historian data can already tell you about it.',
    action: { to: '/contact', label: 'Book a site conversation' },
  },
} satisfies ServicePageContent;
