import type { ContactFieldSpec } from '@site/contracts/contact';

/** A field a test adds to the contact table: the only change a new field needs. */
export const EXTRA_CONTACT_FIELD = {
  name: 'companyName',
  label: 'Company',
  hint: 'Up to 120 characters.',
  wire: ['user', 'company'],
  kind: 'line',
  control: 'input',
  autoComplete: 'organization',
  limit: 120,
  messages: {
    required: 'Please enter your company..',
    tooLong: 'Please keep the company to 120 characters or fewer.',
  },
  email: { show: 'row', label: 'Company' },
} as const satisfies ContactFieldSpec;
