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
import { HomeArt } from '../art/home';
import { TechnologyLogos } from '../components/TechnologyLogos';
import { homeContent as c } from '../content/home';
import { useNavGroups } from '../hooks/use-nav-groups';
import { groupCards } from '../navigation';

type Titles = Pick<SectionProps, 'eyebrow' | 'heading' | 'intro'>;

/** A band's eyebrow, heading and intro, taken from its content. */
const titles = ({ eyebrow, heading, intro }: Titles): Titles => ({ eyebrow, heading, intro });

export default function HomePage() {
  const groups = useNavGroups();
  return (
    <>
      <HeroBanner
        size="home"
        eyebrow={c.hero.eyebrow}
        title={c.hero.title}
        lead={c.hero.lead}
        actions={c.hero.actions}
        art={HomeArt}
      />
      <Section {...titles(c.intro)} animate={false}>
        {/* The track record sits beside who we are: one band, not two, on a phone's long page. */}
        <div className="split">
          <Prose paragraphs={c.intro.paragraphs} />
          <div className="counter-grid counter-grid--row">
            {/* A year is a date, not a quantity: counting up to it would show a visitor years
                that never were, so it is set as it is. The years since then count up. */}
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
        </div>
      </Section>
      <Section id="services" {...titles(c.services)} tone="muted">
        <LinkCards items={groupCards(groups, c.services.items)} />
      </Section>
      <Section {...titles(c.solutions)}>
        <FeatureList items={c.solutions.items} />
      </Section>
      <Section id="approach" {...titles(c.approach)} tone="dark">
        <ApproachSteps />
      </Section>
      <Section {...titles(c.technologies)}>
        <TechnologyLogos names={c.technologies.items} />
      </Section>
      <CallToAction />
    </>
  );
}
