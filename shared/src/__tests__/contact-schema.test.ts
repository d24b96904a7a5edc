import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  contactFormSchema,
  contactMessageSchema,
  fieldErrors,
  toContactMessage,
} from '../contact/schema';

const form = {
  fullName: 'Thandi Nkosi',
  emailAddress: 'thandi@example.co.za',
  subject: 'LMS project',
  message: 'Hello',
};

const errorsFor = (value: unknown) => {
  const result = contactFormSchema.safeParse(value);
  return result.success ? [] : fieldErrors(result.error);
};

describe('the contact schema', () => {
  it('accepts a complete form and maps it onto the payload', () => {
    expect(contactFormSchema.safeParse(form).success).toBe(true);
    expect(toContactMessage(form)).toEqual({
      user: { name: 'Thandi Nkosi', email: 'thandi@example.co.za' },
      message: { subject: 'LMS project', body: 'Hello' },
    });
    expect(contactMessageSchema.safeParse(toContactMessage(form)).success).toBe(true);
  });

  it.each([
    ['fullName', CONTACT_MESSAGES.nameRequired],
    ['emailAddress', CONTACT_MESSAGES.emailRequired],
    ['subject', CONTACT_MESSAGES.subjectRequired],
    ['message', CONTACT_MESSAGES.bodyRequired],
  ])('an empty %s says "%s"', (field, text) => {
    expect(errorsFor({ ...form, [field]: '   ' })).toEqual([{ path: field, message: text }]);
  });

  it('uses the spec texts word for word', () => {
    expect(CONTACT_MESSAGES.nameRequired).toBe('Please enter your name..');
    expect(CONTACT_MESSAGES.emailRequired).toBe('Please enter an email address..');
    expect(CONTACT_MESSAGES.emailInvalid).toBe('Please enter a valid email address..');
    expect(CONTACT_MESSAGES.subjectRequired).toBe('Please enter a subject..');
    expect(CONTACT_MESSAGES.bodyRequired).toBe('Please enter your message..');
    expect(CONTACT_MESSAGES.allRequired).toBe('All fields are required..');
    expect(CONTACT_MESSAGES.fillMissing).toBe('Please fill in the missing fields..');
    expect(CONTACT_MESSAGES.sent).toBe('Your message has been sent..');
  });

  it.each(['plainaddress', 'a@', '@b.co', 'a b@c.com', 'a@b'])(
    'rejects the address %s as invalid',
    (email) => {
      expect(errorsFor({ ...form, emailAddress: email })).toEqual([
        { path: 'emailAddress', message: CONTACT_MESSAGES.emailInvalid },
      ]);
    },
  );

  it('states and enforces the length limits', () => {
    expect(errorsFor({ ...form, fullName: 'x'.repeat(CONTACT_LIMITS.name) })).toEqual([]);
    expect(errorsFor({ ...form, fullName: 'x'.repeat(CONTACT_LIMITS.name + 1) })[0]?.message).toBe(
      CONTACT_MESSAGES.nameTooLong,
    );
    expect(errorsFor({ ...form, message: 'x'.repeat(CONTACT_LIMITS.body + 1) })[0]?.message).toBe(
      CONTACT_MESSAGES.bodyTooLong,
    );
  });

  it('refuses line breaks in fields that reach mail headers, but allows them in the message', () => {
    expect(errorsFor({ ...form, subject: 'Hi\r\nBcc: victim@example.com' })[0]?.path).toBe(
      'subject',
    );
    expect(errorsFor({ ...form, fullName: 'Eve\nBcc: x@y.z' })[0]?.path).toBe('fullName');
    expect(errorsFor({ ...form, message: 'Line one\nLine two' })).toEqual([]);
    expect(errorsFor({ ...form, message: 'nul\u0000byte' })[0]?.path).toBe('message');
  });

  it('refuses unknown keys in the wire payload', () => {
    const result = contactMessageSchema.safeParse({ ...toContactMessage(form), admin: true });
    expect(result.success).toBe(false);
  });
});
