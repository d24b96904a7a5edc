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
  type SectionProps,
} from '@site/ui';
import { TechnologyLogos } from '../components/TechnologyLogos';
import { homeContent as c } from '../content/home';

type Titles = Pick<SectionProps, 'eyebrow' | 'heading' | 'intro'>;

/** A band's eyebrow, heading and intro, taken from its content. */
const titles = ({ eyebrow, heading, intro }: Titles): Titles => ({ eyebrow, heading, intro });

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
      <Section {...titles(c.intro)} animate={false}>
        <Prose paragraphs={c.intro.paragraphs} />
      </Section>
      <Section id="services" {...titles(c.services)} tone="muted">
        <LinkCards items={c.services.items} />
      </Section>
      <Section {...titles(c.solutions)}>
        <FeatureList items={c.solutions.items} />
      </Section>
      <Section id="approach" {...titles(c.approach)} tone="dark">
        <ApproachSteps />
      </Section>
      <Section {...titles(c.figures)} tone="muted">
        <div className="counter-grid">
          {/* A year is a date, not a quantity: counting up to it would show a visitor years that
              never were, so it is set as it is. The years since then count up. */}
          <div className="counter">
            <p className="counter__value">{company.foundingYear}</p>
            <p className="counter__label">{c.figures.founded}</p>
          </div>
          <AnimatedCounter
            target={yearsSinceFounding()}
            label={c.figures.years}
            speed={2500}
            suffix="+"
          />
          {[c.figures.industries, c.figures.regions].map((figure) => (
            <div className="counter" key={figure.label}>
              <p className="counter__value">{figure.value}</p>
              <p className="counter__label">{figure.label}</p>
            </div>
          ))}
        </div>
      </Section>
      <Section {...titles(c.technologies)}>
        <TechnologyLogos names={c.technologies.items} />
      </Section>
      <CallToAction />
    </>
  );
}
