// The ID token's signature against the issuer's published keys (JWKS) and its claims (OpenID Connect
// Core §3.1.3.7), on node:crypto alone: a JWK becomes a KeyObject with createPublicKey({format: 'jwk'}).
// RS256 is what every provider signs with by default (the spec makes it mandatory to support); ES256
// is the common alternative. "none" and HMAC algorithms are refused: a token Hookline did not see
// signed by the issuer's key proves nothing.
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { fetchProviderJson } from './fetch-provider-json';
import { ssoFailed } from './sso-error';

const ALGORITHMS = {
  RS256: { kty: 'RSA', dsaEncoding: undefined },
  ES256: { kty: 'EC', dsaEncoding: 'ieee-p1363' },
} as const;
type Algorithm = keyof typeof ALGORITHMS;

// Providers rotate keys by publishing the new one before signing with it, so a key id not seen yet
// means the cached set is old: it is fetched again, at most once a minute (a token with a made-up key
// id must not make every callback fetch the set).
const JWKS_CACHE_MS = 3_600_000;
const JWKS_REFETCH_MIN_MS = 60_000;
// Clock difference tolerated between the provider and this server.
const CLOCK_SKEW_S = 60;

const jwksCache = new Map<string, { keys: JsonWebKey[]; fetchedAt: number }>();

export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  nonce?: string;
  email?: unknown;
  email_verified?: unknown;
  [claim: string]: unknown;
}

export async function verifyIdToken(
  {
    idToken,
    issuer,
    clientId,
    nonce,
    jwksUri,
  }: { idToken: string; issuer: string; clientId: string; nonce: string; jwksUri: string },
  { now = Date.now() }: { now?: number } = {},
): Promise<IdTokenClaims> {
  const parts = idToken.split('.');
  if (parts.length !== 3) throw invalid('it is not a signed JWT');
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const header = decodeJson(encodedHeader) as { alg?: string; kid?: string };
  const algorithm = header.alg;
  if (!algorithm || !(algorithm in ALGORITHMS)) throw invalid(`it is signed with ${algorithm ?? 'no algorithm'}`);
  const { kty, dsaEncoding } = ALGORITHMS[algorithm as Algorithm];

  const key = await findKey({ jwksUri, kid: header.kid, kty, now });
  const signed = Buffer.from(`${encodedHeader}.${encodedPayload}`);
  const signature = Buffer.from(encodedSignature, 'base64url');
  const valid = verify('sha256', signed, dsaEncoding ? { key, dsaEncoding } : key, signature);
  if (!valid) throw invalid('its signature does not verify with the issuer’s key');

  const claims = decodeJson(encodedPayload) as IdTokenClaims;
  if (claims.iss !== issuer) throw invalid(`it was issued by ${String(claims.iss)}, not ${issuer}`);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(clientId)) throw invalid('it was issued for another client');
  // Core §3.1.3.7 (3, 5): with several audiences, the authorized party must be this client.
  if (audiences.length > 1 && claims.azp !== clientId) throw invalid('its authorized party is another client');
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_SKEW_S <= now / 1000) throw invalid('it has expired');
  if (typeof claims.sub !== 'string' || claims.sub === '') throw invalid('it names no subject');
  // The nonce ties the token to the browser that started this sign-in (it was in its state cookie):
  // a token captured from another sign-in cannot be replayed here.
  if (claims.nonce !== nonce) throw invalid('its nonce is not the one this sign-in sent');
  return claims;
}

async function findKey({
  jwksUri,
  kid,
  kty,
  now,
}: {
  jwksUri: string;
  kid: string | undefined;
  kty: string;
  now: number;
}): Promise<KeyObject> {
  const pick = (keys: JsonWebKey[]) =>
    keys.find(
      (jwk) =>
        jwk.kty === kty && (kid === undefined || jwk.kid === kid) && (jwk.use === undefined || jwk.use === 'sig'),
    );
  const cached = jwksCache.get(jwksUri);
  let jwk = cached && now - cached.fetchedAt < JWKS_CACHE_MS ? pick(cached.keys) : undefined;
  if (!jwk && (!cached || now - cached.fetchedAt >= JWKS_REFETCH_MIN_MS)) {
    const document = await fetchProviderJson(jwksUri, { headers: { accept: 'application/json' } });
    const keys = Array.isArray(document.keys) ? (document.keys as JsonWebKey[]) : [];
    jwksCache.set(jwksUri, { keys, fetchedAt: now });
    jwk = pick(keys);
  }
  if (!jwk) throw invalid(`the issuer publishes no ${kty} key${kid ? ` with id ${kid}` : ''}`);
  try {
    return createPublicKey({ key: jwk, format: 'jwk' });
  } catch (error) {
    throw invalid(`the issuer’s key cannot be read: ${(error as Error).message}`);
  }
}

function decodeJson(part: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Falls through to the refusal below.
  }
  throw invalid('it is not a JWT');
}

const invalid = (why: string) => ssoFailed('provider_error', `The ID token was refused: ${why}`);
