// The ID token checks of lib/domain/auth/sso/verify-id-token.ts, one refusal per row, with tokens signed
// here by node:crypto and the key set served by a real HTTP server on 127.0.0.1:0 (the SSO flow itself
// is test/api/sso.test.ts, against a real provider that signs with RS256).
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIdToken } from '../../../lib/domain/auth/sso/verify-id-token';
import { DomainError } from '../../../lib/domain/errors';

const ISSUER = 'https://id.example';
const CLIENT = 'hookline';
const NONCE = 'the-nonce';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
let server: Server;
let jwksUri: string;

beforeAll(async () => {
  const keys = [
    { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'rsa-1', use: 'sig' },
    { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec-1', use: 'sig' },
  ];
  server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function jwt(
  claims: Record<string, unknown>,
  { alg = 'RS256', kid = 'rsa-1', key = rsa.privateKey }: { alg?: string; kid?: string; key?: KeyObject } = {},
): string {
  const input = `${b64({ alg, kid, typ: 'JWT' })}.${b64(claims)}`;
  const signature =
    alg === 'ES256'
      ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(input), key);
  return `${input}.${signature.toString('base64url')}`;
}

const now = Math.floor(Date.now() / 1000);
const good = { iss: ISSUER, aud: CLIENT, sub: 'user-1', exp: now + 300, iat: now, nonce: NONCE, email: 'a@b.test' };
const verifyToken = (idToken: string) =>
  verifyIdToken({ idToken, issuer: ISSUER, clientId: CLIENT, nonce: NONCE, jwksUri });

describe('verifyIdToken', () => {
  it('accepts RS256 and ES256 tokens signed by a published key, and returns the claims', async () => {
    expect(await verifyToken(jwt(good))).toMatchObject({ sub: 'user-1', email: 'a@b.test' });
    expect(await verifyToken(jwt(good, { alg: 'ES256', kid: 'ec-1', key: ec.privateKey }))).toMatchObject({
      sub: 'user-1',
    });
    // Several audiences are fine when this client is the authorized party.
    expect(await verifyToken(jwt({ ...good, aud: [CLIENT, 'other'], azp: CLIENT }))).toMatchObject({ sub: 'user-1' });
  });

  const unsigned = `${b64({ alg: 'none' })}.${b64(good)}.`;
  const tampered = (() => {
    const [header, , signature] = jwt(good).split('.');
    return `${header}.${b64({ ...good, sub: 'admin' })}.${signature}`;
  })();
  it.each([
    ['alg none', unsigned, /signed with none/],
    ['HS256 (a secret anyone with the public key could "sign" with)', jwt(good, { alg: 'HS256' }), /signed with HS256/],
    ['a changed payload', tampered, /signature does not verify/],
    ['a key the issuer does not publish', jwt(good, { key: otherRsa.privateKey }), /signature does not verify/],
    ['an unknown key id', jwt(good, { kid: 'nope' }), /no RSA key with id nope/],
    ['another issuer', jwt({ ...good, iss: 'https://evil.example' }), /issued by https:\/\/evil.example/],
    ['another audience', jwt({ ...good, aud: 'someone-else' }), /for another client/],
    ['several audiences, azp another client', jwt({ ...good, aud: [CLIENT, 'x'], azp: 'x' }), /authorized party/],
    ['expiry past the skew', jwt({ ...good, exp: now - 120 }), /expired/],
    ['no subject', jwt({ ...good, sub: '' }), /no subject/],
    ['another nonce', jwt({ ...good, nonce: 'replayed' }), /nonce/],
    ['no nonce', jwt({ ...good, nonce: undefined }), /nonce/],
    ['not a JWT', 'abc.def', /not a signed JWT/],
  ])('refuses %s', async (_label, token, message) => {
    const error = await verifyToken(token).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('sso_failed');
    expect((error as DomainError).details).toEqual({ reason: 'provider_error' });
    expect((error as Error).message).toMatch(message);
  });
});
