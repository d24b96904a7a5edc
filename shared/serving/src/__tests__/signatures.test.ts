/**
 * @jest-environment node
 */
import { createHmac } from 'node:crypto';
import { isSignature, purposeKey, sameText, sign } from '../signatures';

const key = purposeKey('a secret of the site', 'preview links');

describe('signatures', () => {
  it('are HMAC-SHA-256 in base64url, cut to the bytes asked for', () => {
    const full = createHmac('sha256', key).update('preview\npayload').digest();
    expect(sign(key, 'preview\npayload')).toBe(full.toString('base64url'));
    expect(sign(key, 'preview\npayload', 12)).toBe(full.subarray(0, 12).toString('base64url'));
  });

  it('check only the exact signature of the exact message under the same key', () => {
    const mac = sign(key, 'view\n42');
    expect(isSignature(key, 'view\n42', mac)).toBe(true);
    expect(isSignature(key, 'view\n43', mac)).toBe(false);
    expect(isSignature(purposeKey('a secret of the site', 'form'), 'view\n42', mac)).toBe(false);
    expect(isSignature(key, 'view\n42', `${mac}A`)).toBe(false);
    expect(isSignature(key, 'view\n42', mac.slice(0, -1))).toBe(false);
    expect(isSignature(key, 'view\n42', '')).toBe(false);
    expect(isSignature(key, 'view\n42', sign(key, 'view\n42', 12))).toBe(false);
    expect(isSignature(key, 'view\n42', sign(key, 'view\n42', 12), 12)).toBe(true);
  });

  it('take any text, U+2028, NUL and lone surrogates included, as message and as given', () => {
    const odd = 'a\u2028b\u0000c\ud800d';
    expect(isSignature(key, odd, sign(key, odd))).toBe(true);
    expect(isSignature(key, odd, odd)).toBe(false);
    const megabyte = 'x'.repeat(1_000_000);
    expect(isSignature(key, megabyte, sign(key, megabyte))).toBe(true);
    expect(isSignature(key, 'view\n42', megabyte)).toBe(false);
  });

  it('give each purpose a key of its own', () => {
    expect(purposeKey('s', 'form-token').equals(purposeKey('s', 'held-release'))).toBe(false);
    expect(purposeKey('s', 'form-token').equals(purposeKey('s', 'form-token'))).toBe(true);
  });

  it('compare texts of any lengths', () => {
    expect(sameText('token', 'token')).toBe(true);
    expect(sameText('token', 'token ')).toBe(false);
    expect(sameText('', 'x'.repeat(100_000))).toBe(false);
  });
});
