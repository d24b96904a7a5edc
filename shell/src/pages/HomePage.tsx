import {
  AnimatedCounter,
  ApproachSteps,
  CallToAction,
  FeatureList,
  HeroBanner,
  LinkCards,
  Prose,
  Section,
  company,
  yearsSinceFounding,
} from '@site/shared';
import { TechnologyLogos } from '../components/TechnologyLogos';
import { homeContent as c } from '../content/home';

export default function HomePage() {
  return (
    <>
      <HeroBanner
        size="home"
        eyebrow={c.hero.eyebrow}
        title={c.hero.title}
        lead={c.hero.lead}
        actions={c.hero.actions}
      />
      <Section eyebrow={c.intro.eyebrow} heading={c.intro.heading} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section
        id="services"
        eyebrow={c.services.eyebrow}
        heading={c.services.heading}
        intro={c.services.intro}
        tone="muted"
      >
        <LinkCards items={c.services.items} />
      </Section>
      <Section
        eyebrow={c.solutions.eyebrow}
        heading={c.solutions.heading}
        intro={c.solutions.intro}
      >
        <FeatureList items={c.solutions.items} />
      </Section>
      <Section
        eyebrow={c.approach.eyebrow}
        heading={c.approach.heading}
        intro={c.approach.intro}
        tone="dark"
      >
        <ApproachSteps />
      </Section>
      <Section eyebrow={c.figures.eyebrow} heading={c.figures.heading} tone="muted">
        <div className="counter-grid">
          <AnimatedCounter target={company.foundingYear} label={c.figures.founded} speed={2500} />
          <AnimatedCounter
            target={yearsSinceFounding()}
            label={c.figures.years}
            speed={2500}
            suffix="+"
          />
          <div className="counter">
            <p className="counter__value">{c.figures.industries.value}</p>
            <p className="counter__label">{c.figures.industries.label}</p>
          </div>
          <div className="counter">
            <p className="counter__value">{c.figures.regions.value}</p>
            <p className="counter__label">{c.figures.regions.label}</p>
          </div>
        </div>
      </Section>
      <Section
        eyebrow={c.technologies.eyebrow}
        heading={c.technologies.heading}
        intro={c.technologies.intro}
      >
        <TechnologyLogos names={c.technologies.items} />
      </Section>
      <CallToAction />
    </>
  );
}
