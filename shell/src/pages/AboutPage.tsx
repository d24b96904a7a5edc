import {
  ApproachSteps,
  ButtonLink,
  CallToAction,
  CheckList,
  FeatureList,
  HeroBanner,
  Prose,
  Section,
  SkillBars,
  StatGrid,
  company,
} from '@site/ui';
import { AboutArt } from '../art/about';
import { aboutContent as c } from '../content/about';
import { shellRoutes } from '../content/shell-routes';

export default function AboutPage() {
  return (
    <>
      <HeroBanner title={shellRoutes.about.title} lead={c.hero.lead} art={AboutArt} />
      <Section heading={c.whoWeAre.heading} animate={false}>
        <div className="split">
          <Prose paragraphs={c.whoWeAre.paragraphs} />
          <StatGrid items={c.stats} />
        </div>
      </Section>
      <Section heading={c.vision.heading} tone="muted">
        <Prose paragraphs={c.vision.paragraphs} />
        <p>
          <strong>{c.vision.sectorsIntro}</strong>
        </p>
        <CheckList items={company.sectors} columns={3} />
      </Section>
      <Section heading={c.whyUs.heading}>
        <FeatureList items={c.whyUs.items} />
      </Section>
      <Section heading={c.skills.heading} intro={c.skills.intro} tone="muted">
        <SkillBars items={c.skills.items} />
      </Section>
      <Section heading={c.approach.heading} intro={c.approach.intro} tone="dark">
        {/* The steps by name; the home page explains each, so it is not repeated here. */}
        <ApproachSteps outline />
        <p className="section__more">
          <ButtonLink to={c.approach.more.to} variant="light">
            {c.approach.more.label}
          </ButtonLink>
        </p>
      </Section>
      <CallToAction {...c.cta} />
    </>
  );
}
