/** The 404 page's texts, word for word from the spec (double full stops included). */
export const notFoundContent = {
  heading: 'Page not found..',
  text: "We're sorry, the page you're looking for could not be found..",
  home: 'Back to home',
  contact: 'Get in touch',
  /** Heads the list of every service page, the way on from a page that is not there. */
  pages: 'Our services, page by page',
} as const;
