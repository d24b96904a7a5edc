import type { ServicePageContent } from '@site/ui';
import { DataScienceArt } from '../art/data-science';

export default {
  art: DataScienceArt,
  lead: 'Data science earns its keep when a model changes a decision: which stock to order, which customer to call, which transaction to stop. We build models around those decisions and put them into daily use.',
  intro: {
    heading: 'Models that go into production',
    paragraphs: [
      'Many organisations have run a promising machine learning pilot that never left a notebook. The model was accurate, but nobody owned it, it was not connected to the systems people use, and its predictions arrived too late to act on.',
      'We start from the decision instead. Before any modelling, we agree who will use the prediction, when they need it, what action it triggers and how much a better decision is worth. That keeps projects small enough to deliver in weeks and grounded enough to show a measurable return.',
    ],
  },
  sections: [
    {
      kind: 'features',
      tone: 'muted',
      columns: 3,
      heading: 'Use cases we deliver',
      intro: [
        'These are the problems clients in banking, manufacturing, mining, petroleum, health and the motor industry bring to us most often.',
      ],
      items: [
        {
          title: 'Demand forecasting',
          text: 'Weekly and daily forecasts by product and location that account for seasonality, promotions and public holidays, feeding purchasing and production plans.',
        },
        {
          title: 'Customer churn',
          text: 'Scores that flag customers likely to leave in the next quarter, with the main reasons, so retention teams spend time on accounts they can still save.',
        },
        {
          title: 'Fraud detection',
          text: 'Real-time scoring of card, claims and payment transactions that combines rules with anomaly detection and keeps false positives low enough for investigators to cope.',
        },
        {
          title: 'Predictive maintenance',
          text: 'Failure-risk models for pumps, conveyors, compressors and haul trucks built from vibration, temperature and maintenance history, so work is planned before a breakdown.',
        },
        {
          title: 'Credit risk',
          text: 'Application and behavioural scorecards that are explainable to credit committees and regulators, and monitored for drift once live.',
        },
        {
          title: 'Patient risk',
          text: 'Models that identify patients at risk of missing treatment or being readmitted, helping clinics and health programmes target follow-up visits where they matter most.',
        },
      ],
    },
    {
      kind: 'features',
      columns: 3,
      heading: 'Our three-phase approach',
      intro: [
        'Every project moves through the same three phases. Each ends with a clear go or no-go decision, so you never fund a model that cannot pay for itself.',
      ],
      items: [
        {
          title: '1. Discover',
          text: 'Two to three weeks. We frame the business question, audit the available data, establish a baseline for today’s performance and estimate the value of improving it. You get a short report with a recommendation to proceed or to stop.',
        },
        {
          title: '2. Develop',
          text: 'Four to eight weeks. We engineer features, test several modelling techniques against the baseline and validate the best on data the model has never seen. Results are reviewed with your domain experts, who often spot what the data cannot.',
        },
        {
          title: '3. Deploy',
          text: 'We integrate the model into your systems, as an API, a scheduled batch score or a dashboard, and set up monitoring for accuracy and data drift. Your team is trained to retrain and maintain it, or we support it for you.',
        },
      ],
    },
    {
      kind: 'checks',
      tone: 'muted',
      columns: 3,
      heading: 'Tools and techniques',
      items: [
        'Python, R and SQL',
        'scikit-learn, XGBoost and LightGBM',
        'PyTorch for deep learning',
        'Time-series forecasting',
        'Survival and propensity models',
        'MLflow for model tracking',
        'Azure Machine Learning',
        'Databricks',
        'Amazon SageMaker',
      ],
    },
    {
      kind: 'prose',
      heading: 'Responsible by design',
      paragraphs: [
        'Models that affect customers, patients or employees must be fair, explainable and lawful. We test for bias across groups, document each model’s purpose and limits, use explanation techniques such as SHAP so decisions can be justified, and process personal data in line with POPIA and GDPR.',
      ],
    },
  ],
  cta: {
    heading: 'Have a decision that could use a better prediction?',
    text: 'Describe it in a few lines. We will tell you whether your data can support a model and what a Discover phase would cost.',
    action: { to: '/contact', label: 'Discuss a use case' },
  },
} satisfies ServicePageContent;
