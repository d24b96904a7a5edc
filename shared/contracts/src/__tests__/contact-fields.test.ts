import {
  CONTACT_FIELDS,
  contactSchemas,
  emailContent,
  fieldErrors,
  fromFormPost,
  payloadValues,
  toPayload,
} from '../contact';
import { EXTRA_CONTACT_FIELD as company } from '@site/build/testing/contact';

/** The site's table with one more field: the only change a new field needs. */
const TABLE = [...CONTACT_FIELDS, company] as const;

const values = {
  fullName: 'Thandi Nkosi',
  emailAddress: 'thandi@example.co.za',
  subject: 'LMS project',
  message: 'Hello',
  companyName: '  Highveld Mining ',
};

describe('a field added to the contact table', () => {
  const schemas = contactSchemas(TABLE);

  it('is validated by the form schema, with its own texts', () => {
    expect(schemas.form.safeParse(values).success).toBe(true);
    const missing = schemas.form.safeParse({ ...values, companyName: ' ' });
    expect(missing.success).toBe(false);
    expect(fieldErrors(missing.error!)).toEqual([
      { path: 'companyName', message: 'Please enter your company..' },
    ]);
    const long = schemas.form.safeParse({ ...values, companyName: 'x'.repeat(121) });
    expect(fieldErrors(long.error!)[0]?.message).toBe(
      'Please keep the company to 120 characters or fewer.',
    );
    // A header-bound field: no line breaks.
    const injected = schemas.form.safeParse({ ...values, companyName: 'A\r\nBcc: x@y.z' });
    expect(fieldErrors(injected.error!)[0]?.path).toBe('companyName');
  });

  it('travels in the payload at its wire path, and the payload schema requires it', () => {
    const payload = toPayload(TABLE, values);
    expect(payload).toEqual({
      user: { name: 'Thandi Nkosi', email: 'thandi@example.co.za', company: 'Highveld Mining' },
      message: { subject: 'LMS project', body: 'Hello' },
    });
    expect(schemas.payload.safeParse(payload).success).toBe(true);
    const without = { ...payload, user: { name: 'Thandi Nkosi', email: 'thandi@example.co.za' } };
    const refused = schemas.payload.safeParse(without);
    expect(refused.success).toBe(false);
    expect(fieldErrors(refused.error!)[0]?.path).toBe('user.company');
    expect(schemas.paths.companyName).toBe('user.company');
  });

  it('is read from a plain form post and shown in the e-mail', () => {
    const posted = fromFormPost(TABLE, { ...values, companyName: ['First', 'Second'], extra: 'x' });
    expect(posted.companyName).toBe('First');
    expect(Object.keys(posted)).not.toContain('extra');
    const { rows, body } = emailContent(TABLE, toPayload(TABLE, values));
    expect(rows).toContainEqual({ label: 'Company', value: 'Highveld Mining' });
    expect(body).toBe('Hello');
    expect(payloadValues(TABLE, toPayload(TABLE, values))).toContain('Highveld Mining');
  });

  it('leaves the site’s own payload exactly as the spec gives it', () => {
    const { company: _dropped, ...user } = toPayload(TABLE, values).user;
    void _dropped;
    expect(toPayload(CONTACT_FIELDS, values)).toEqual({
      user,
      message: { subject: 'LMS project', body: 'Hello' },
    });
  });
});

describe('an optional field', () => {
  const optional = { ...company, optional: true } as const;
  const schemas = contactSchemas([...CONTACT_FIELDS, optional] as const);

  it('may be left empty, in the form and in the payload', () => {
    expect(schemas.form.safeParse({ ...values, companyName: '   ' }).success).toBe(true);
    const payload = toPayload([...CONTACT_FIELDS, optional] as const, {
      ...values,
      companyName: '',
    });
    expect(schemas.payload.safeParse(payload).success).toBe(true);
  });

  it('holds what is written to its rule, with its own texts', () => {
    const long = schemas.form.safeParse({ ...values, companyName: 'x'.repeat(121) });
    expect(fieldErrors(long.error!)).toEqual([
      { path: 'companyName', message: 'Please keep the company to 120 characters or fewer.' },
    ]);
    const injected = schemas.form.safeParse({ ...values, companyName: 'A\r\nBcc: x@y.z' });
    expect(fieldErrors(injected.error!)[0]?.path).toBe('companyName');
  });
});
