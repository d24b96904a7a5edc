import { company } from '@site/ui';

/**
 * schema.org JSON-LD for the organisation and its office (address, opening hours, location), so
 * search engines can show the company's details. Written into the head of the home and contact
 * pages by the site server.
 */
export function organizationJsonLd(siteUrl: string): string {
  const a = company.address;
  const data = {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': `${siteUrl}/#organization`,
    name: company.name,
    legalName: company.legalName,
    description: `IT solutions and consulting company founded in ${company.foundingYear}, serving clients across ${company.regions.join(' and ')}.`,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/favicon.svg`,
    email: company.email,
    telephone: company.phone.e164,
    foundingDate: String(company.foundingYear),
    areaServed: company.regions,
    address: {
      '@type': 'PostalAddress',
      streetAddress: a.street,
      addressLocality: a.locality,
      addressRegion: a.region,
      postalCode: a.postalCode,
      addressCountry: a.countryCode,
    },
    geo: {
      '@type': 'GeoCoordinates',
      latitude: company.location.lat,
      longitude: company.location.lng,
    },
    openingHoursSpecification: [
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: company.hours.opens,
        closes: company.hours.closes,
      },
    ],
    sameAs: company.social.map((s) => s.url),
    hasMap: `https://www.openstreetmap.org/?mlat=${company.location.lat}&mlon=${company.location.lng}`,
    slogan: company.tagline,
  };
  // `<` is escaped so no text can close the script element early.
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
