// TOTP (RFC 6238) with node:crypto: HMAC-SHA1 over the 30-second step counter, dynamic truncation
// (RFC 4226, section 5.3), 6 digits: what every authenticator app expects from an otpauth:// URL.
// ~40 lines instead of a dependency; test/lib/totp.test.ts checks it against the RFC's test vectors.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOTP_STEP_SECONDS = 30;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/[\s=]/g, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index === -1) throw new Error(`not base32: ${JSON.stringify(char)}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** 20 random bytes (160 bits, the HMAC-SHA1 block the RFC recommends), base32 for the authenticator. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The code for one time step (RFC 4226 HOTP with the step as counter). */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

export const totpStep = (unixMs: number) => Math.floor(unixMs / 1000 / TOTP_STEP_SECONDS);

/**
 * The step a code matches, or null. One step either side is accepted (RFC 6238, section 5.2: a
 * phone's clock a little off, a code typed as it turned over); a step at or before `lastStep` is
 * refused, so a code seen over a shoulder cannot be used a second time.
 */
export function matchTotp({
  secret,
  code,
  now = Date.now(),
  lastStep = null,
}: {
  secret: string;
  code: string;
  now?: number;
  lastStep?: number | null;
}): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secret);
  const current = totpStep(now);
  for (const step of [current - 1, current, current + 1]) {
    if (lastStep !== null && step <= lastStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) return step;
  }
  return null;
}

/** The otpauth:// URL authenticator apps import (as a QR code or pasted). */
export function totpUri({ secret, email, issuer = 'Hookline' }: { secret: string; email: string; issuer?: string }) {
  const label = encodeURIComponent(`${issuer}:${email}`);
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: '6',
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
