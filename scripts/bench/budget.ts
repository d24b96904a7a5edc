/** Budgets the site is held to, and the aims of the current work (gzip bytes, 1 KB = 1024). */
export const BUDGET = {
  firstLoadJsHome: 110 * 1024,
  firstLoadJsShellAim: 100 * 1024,
  firstLoadJsRemoteAim: 125 * 1024,
  tapRatioAim: 1.5,
  // Lighthouse mobile performance, the median of a route's runs (a single run may fall to 99:
  // docs/decisions.md, "Every page keeps its opener policy, at a Lighthouse point").
  performance: 100,
  otherCategories: 100,
  lcpRatio: 1.2,
  cls: 0.02,
};
