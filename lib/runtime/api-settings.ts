import { loadConfig } from './env';

export interface ApiSettings {
  maxPayloadBytes: number;
  rateLimitPerSecond: number;
  sessionTtlHours: number;
  sessionIdleTimeoutMs: number;
  invitationTtlMs: number;
  allowLoopback: boolean;
  allowPrivate: boolean;
  /** Delay before each attempt; its length is the most attempts a delivery gets. */
  retryScheduleMs: number[];
  /** The per-attempt deadline of endpoints (and apps) that set none. */
  deliveryTimeoutMs: number;
  trustProxy: boolean;
  /** Single sign-on (HOOKLINE_OIDC_*); null when not configured. */
  oidc: OidcSettings | null;
  passwordSignIn: boolean;
  /** How long one request of a payload search may scan before it answers with a cursor. */
  searchBudgetMs: number;
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The role of a member created at its first SSO sign-in; null: no such creation. */
  defaultRole: 'owner' | 'admin' | 'developer' | 'viewer' | null;
}

let cached: ApiSettings | undefined;

/** The API's configuration, read from the environment once per process. */
export function getApiSettings(): ApiSettings {
  if (cached) return cached;
  const config = loadConfig();
  cached = {
    maxPayloadBytes: config.HOOKLINE_MAX_PAYLOAD_BYTES,
    rateLimitPerSecond: config.HOOKLINE_API_RATE_LIMIT,
    sessionTtlHours: config.HOOKLINE_SESSION_TTL_HOURS,
    sessionIdleTimeoutMs: config.HOOKLINE_SESSION_IDLE_TIMEOUT,
    invitationTtlMs: config.HOOKLINE_INVITATION_TTL,
    allowLoopback: config.HOOKLINE_ALLOW_LOOPBACK,
    allowPrivate: config.HOOKLINE_ALLOW_PRIVATE_NETWORKS,
    retryScheduleMs: config.HOOKLINE_RETRY_SCHEDULE,
    deliveryTimeoutMs: config.HOOKLINE_DELIVERY_TIMEOUT_MS,
    trustProxy: config.HOOKLINE_TRUST_PROXY,
    oidc:
      config.HOOKLINE_OIDC_ISSUER && config.HOOKLINE_OIDC_CLIENT_ID && config.HOOKLINE_OIDC_CLIENT_SECRET
        ? {
            issuer: config.HOOKLINE_OIDC_ISSUER,
            clientId: config.HOOKLINE_OIDC_CLIENT_ID,
            clientSecret: config.HOOKLINE_OIDC_CLIENT_SECRET,
            defaultRole: config.HOOKLINE_OIDC_DEFAULT_ROLE ?? null,
          }
        : null,
    passwordSignIn: config.HOOKLINE_PASSWORD_SIGN_IN,
    searchBudgetMs: config.HOOKLINE_SEARCH_BUDGET_MS,
  };
  return cached;
}

/** Tests change the environment between cases; this makes the next call read it again. */
export function resetApiSettings(): void {
  cached = undefined;
}
