export * from './company';
export * from './content-types';
export * from './approach';
export * from './text';
export * from './share-card';
export { useReducedMotion, prefersReducedMotion } from './hooks/use-reduced-motion';
export { Accordion, type AccordionProps } from './components/Accordion';
export { AnimatedCounter, type AnimatedCounterProps } from './components/AnimatedCounter';
export { ApproachSteps } from './components/ApproachSteps';
export {
  Breadcrumb,
  SERVICES_CRUMB,
  type BreadcrumbProps,
  type Crumb,
} from './components/Breadcrumb';
export { ButtonLink, type ButtonLinkProps } from './components/ButtonLink';
export { CallToAction } from './components/CallToAction';
export { Container } from './components/Container';
export { CounterGrid } from './components/CounterGrid';
export { CheckList, FeatureList } from './components/FeatureList';
export { HeroBanner, type HeroBannerProps } from './components/HeroBanner';
export {
  Art,
  Bars,
  Cloud,
  Device,
  Doc,
  Gear,
  Lines,
  Person,
  Store,
  Tick,
  Window,
} from './components/Illustrations';
export { LinkCards } from './components/LinkCards';
export { Logo } from './components/Logo';
export { Prose } from './components/Prose';
export { QuoteGrid } from './components/QuoteGrid';
export { Section, type SectionProps } from './components/Section';
export { SectionList } from './components/SectionList';
export {
  ServicePage,
  servicePages,
  contentModule,
  groupAnchor,
  type ServicePageProps,
} from './components/ServicePage';
export { SkillBar, SkillBars, type SkillBarProps } from './components/SkillBar';
export { StatGrid } from './components/StatGrid';
// The router for every page: one copy in the browser, the shell's (see federation.cjs).
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  NavLink,
  StaticRouter,
  useLocation,
  useNavigate,
  useNavigationType,
  type Location,
  type LinkProps,
  type Navigate,
  type NavigationType,
  type NavLinkProps,
} from './router';
export { watchEntry, type EntryHandlers } from './hooks/watched-entry';
