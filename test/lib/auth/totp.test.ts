// TOTP against RFC 6238 Appendix B (SHA-1, 8 digits, the ASCII key "12345678901234567890") and the
// rules Hookline adds: 6 digits, one step of clock skew either way, a step used once.
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  totpStep,
  totpUri,
} from '../../../lib/domain/auth/totp';

const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');

describe('hotp over the 30-second step', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at unix time %i is %s (RFC 6238, Appendix B)', (seconds, code) => {
    expect(hotp(RFC_KEY, totpStep(seconds * 1000), 8)).toBe(code);
  });

  it('gives the RFC 4226 Appendix D values for the first counters (6 digits)', () => {
    expect([0, 1, 2, 9].map((counter) => hotp(RFC_KEY, counter))).toEqual(['755224', '287082', '359152', '520489']);
  });
});

describe('base32', () => {
  it('encodes the RFC 4648 test vectors (without padding) and decodes them back', () => {
    for (const [text, encoded] of [
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ]) {
      expect(base32Encode(Buffer.from(text!))).toBe(encoded);
      expect(base32Decode(encoded!).toString()).toBe(text);
    }
    expect(base32Decode('mzxw 6ytb oi==').toString()).toBe('foobar');
    expect(() => base32Decode('MZ1')).toThrow(/not base32/);
  });

  it('makes 160-bit secrets, different each time', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);
  });
});

describe('matchTotp', () => {
  const secret = base32Encode(RFC_KEY);
  const now = 1111111111_000;
  const codeAt = (ms: number) => hotp(RFC_KEY, totpStep(ms));

  it('accepts the current code and one step either side, nothing further', () => {
    const step = totpStep(now);
    expect(matchTotp({ secret, code: codeAt(now), now })).toBe(step);
    expect(matchTotp({ secret, code: codeAt(now - 30_000), now })).toBe(step - 1);
    expect(matchTotp({ secret, code: codeAt(now + 30_000), now })).toBe(step + 1);
    expect(matchTotp({ secret, code: codeAt(now - 60_000), now })).toBeNull();
    expect(matchTotp({ secret, code: codeAt(now + 60_000), now })).toBeNull();
  });

  it('refuses a step at or before the last one used, so a code works once', () => {
    const step = totpStep(now);
    expect(matchTotp({ secret, code: codeAt(now), now, lastStep: step })).toBeNull();
    expect(matchTotp({ secret, code: codeAt(now), now, lastStep: step - 1 })).toBe(step);
  });

  it('refuses anything but six digits', () => {
    for (const code of ['', '12345', '1234567', 'abcdef', ' 14050471'.slice(0, 6)]) {
      expect(matchTotp({ secret, code, now })).toBeNull();
    }
  });
});

it('builds the otpauth URL authenticator apps read', () => {
  const uri = new URL(totpUri({ secret: 'JBSWY3DPEHPK3PXP', email: 'ops@example.com' }));
  expect(uri.protocol).toBe('otpauth:');
  expect(uri.host).toBe('totp');
  expect(decodeURIComponent(uri.pathname)).toBe('/Hookline:ops@example.com');
  expect(Object.fromEntries(uri.searchParams)).toEqual({
    secret: 'JBSWY3DPEHPK3PXP',
    issuer: 'Hookline',
    algorithm: 'SHA1',
    digits: '6',
    period: '30',
  });
});
