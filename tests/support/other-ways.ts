import { expect, type Locator } from '@playwright/test';
import { company } from '@site/ui/company';

/**
 * A notice that the form cannot take the message now names another way to reach the company: its
 * e-mail address, and its phone when the company facts have one.
 */
export async function expectOtherWays(notice: Locator): Promise<void> {
  await expect(notice.getByRole('link', { name: company.email })).toHaveAttribute(
    'href',
    `mailto:${company.email}`,
  );
  if (company.phone.display) {
    await expect(notice.getByRole('link', { name: company.phone.display })).toHaveAttribute(
      'href',
      `tel:${company.phone.e164}`,
    );
  }
}
