import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  contactFormSchema,
  contactMessageSchema,
  asciiDomain,
  fieldErrors,
  hasUtf8LocalPart,
  toContactMessage,
} from '../contact';

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

  describe('values that look empty or read differently from what they are', () => {
    it.each([
      ['fullName', '\u200b\u200b', CONTACT_MESSAGES.nameRequired],
      ['fullName', '\u2800', CONTACT_MESSAGES.nameRequired],
      ['subject', '\u3164\u200d', CONTACT_MESSAGES.subjectRequired],
      ['message', '\u2800\u2800\n\u200b', CONTACT_MESSAGES.bodyRequired],
    ])('%s made only of invisible characters is empty', (field, value, text) => {
      expect(errorsFor({ ...form, [field]: value })).toEqual([{ path: field, message: text }]);
    });

    it.each(['fullName', 'subject', 'message'])(
      'a right-to-left override (U+202E) in %s is refused',
      (field) => {
        expect(errorsFor({ ...form, [field]: 'invoice \u202Efdp.exe' })[0]?.path).toBe(field);
      },
    );

    it('ordinary right-to-left text is fine', () => {
      expect(errorsFor({ ...form, fullName: 'نورا الحسن', subject: 'שלום' })).toEqual([]);
    });

    it.each(['fullName', 'subject'])('an RFC 2047 encoded word in %s is refused', (field) => {
      expect(errorsFor({ ...form, [field]: '=?UTF-8?Q?a=0D=0ABcc:_evil@example.com?=' })).toEqual([
        { path: field, message: CONTACT_MESSAGES.encodedWord },
      ]);
    });
  });

  describe('e-mail addresses', () => {
    it.each([
      'user@münchen.de',
      'josé@example.com',
      'user@example.xn--p1ai',
      'δοκιμή@παράδειγμα.δοκιμή',
    ])('accepts the international address %s', (email) => {
      expect(errorsFor({ ...form, emailAddress: email })).toEqual([]);
    });

    it('refuses a local part over 64 bytes, accepts one of 64', () => {
      expect(errorsFor({ ...form, emailAddress: `${'a'.repeat(64)}@example.com` })).toEqual([]);
      expect(errorsFor({ ...form, emailAddress: `${'a'.repeat(65)}@example.com` })).toEqual([
        { path: 'emailAddress', message: CONTACT_MESSAGES.emailInvalid },
      ]);
      expect(errorsFor({ ...form, emailAddress: `${'é'.repeat(33)}@example.com` })[0]?.path).toBe(
        'emailAddress',
      );
    });

    it.each([
      'a..b@example.com',
      '.a@example.com',
      'a.@example.com',
      'a@-b.com',
      'a@b.1',
      'a@b.c',
      '"a b"@example.com',
      'a@[127.0.0.1]',
      'a@exa mple.com',
      'a@ex%61mple.com',
    ])('refuses %s', (email) => {
      expect(errorsFor({ ...form, emailAddress: email })[0]?.message).toBe(
        CONTACT_MESSAGES.emailInvalid,
      );
    });

    it('gives the ASCII form of an international domain and tells UTF-8 local parts apart', () => {
      expect(asciiDomain('münchen.de')).toBe('xn--mnchen-3ya.de');
      expect(asciiDomain('Example.COM')).toBe('example.com');
      expect(hasUtf8LocalPart('josé@example.com')).toBe(true);
      expect(hasUtf8LocalPart('user@münchen.de')).toBe(false);
    });
  });
});
