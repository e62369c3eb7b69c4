import { fetchProviderJson } from './fetch-provider-json';
import { ssoFailed } from './sso-error';

export interface IssuerMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  userinfoEndpoint: string | null;
}

// The discovery document changes when the provider is reconfigured, which is rare; an hour keeps one
// fetch per hour per process off the sign-in path, and a restart picks up a change at once.
const CACHE_MS = 3_600_000;
const cache = new Map<string, { metadata: IssuerMetadata; fetchedAt: number }>();

/** The issuer's endpoints, from its /.well-known/openid-configuration (OpenID Connect Discovery 1.0). */
export async function discoverIssuer(issuer: string, { now = Date.now() }: { now?: number } = {}) {
  const cached = cache.get(issuer);
  if (cached && now - cached.fetchedAt < CACHE_MS) return cached.metadata;
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const document = await fetchProviderJson(url);
  const field = (name: string) => (typeof document[name] === 'string' ? (document[name] as string) : null);
  // Discovery §4.3: the document must name exactly the issuer it was fetched for, or a provider could
  // speak for another one. A trailing slash is the one difference tolerated.
  const named = field('issuer');
  if (!named || named.replace(/\/$/, '') !== issuer.replace(/\/$/, '')) {
    throw ssoFailed('provider_error', `The discovery document of ${issuer} names the issuer ${named ?? '(none)'}`);
  }
  const authorizationEndpoint = field('authorization_endpoint');
  const tokenEndpoint = field('token_endpoint');
  const jwksUri = field('jwks_uri');
  if (!authorizationEndpoint || !tokenEndpoint || !jwksUri) {
    throw ssoFailed('provider_error', `The discovery document of ${issuer} lacks an endpoint Hookline needs`);
  }
  const metadata = {
    issuer: named,
    authorizationEndpoint,
    tokenEndpoint,
    jwksUri,
    userinfoEndpoint: field('userinfo_endpoint'),
  };
  cache.set(issuer, { metadata, fetchedAt: now });
  return metadata;
}
