// Hookline's configuration: every environment variable, validated once at boot by one zod schema.
// A bad value stops start-up with a message naming the variable, what was given and what is expected.
import { z } from 'zod';
import { parseDuration, parseDurationList } from './duration';

const integer = (name: string, fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return fallback;
      const value = Number(raw);
      if (!Number.isInteger(value) || value < min || value > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be an integer from ${min} to ${max}, got "${raw}"` });
        return z.NEVER;
      }
      return value;
    });

const boolean = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return fallback;
      const normalised = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(normalised)) return true;
      if (['0', 'false', 'no', 'off'].includes(normalised)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false, got "${raw}"` });
      return z.NEVER;
    });

// A duration as people write it ("30s", "5m", "5d"), in milliseconds.
const duration = (name: string, fallback: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      try {
        return parseDuration(raw === undefined || raw.trim() === '' ? fallback : raw);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a duration: ${(error as Error).message}` });
        return z.NEVER;
      }
    });

const postgresUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: `${name} is not a URL (expected postgresql://user:password@host:5432/db)`,
        });
        return z.NEVER;
      }
      if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
        ctx.addIssue({ code: 'custom', message: `${name} must start with postgresql://, got "${url.protocol}//"` });
        return z.NEVER;
      }
      return raw;
    });

// An OTLP/HTTP collector address (OTEL_EXPORTER_OTLP_ENDPOINT and _TRACES_ENDPOINT, as the OpenTelemetry
// specification names them): http or https, since this exporter speaks OTLP over HTTP only.
const otlpEndpoint = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const value = raw.trim();
      if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol)) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be an http(s) URL such as http://127.0.0.1:4318, got "${raw}"`,
        });
        return z.NEVER;
      }
      return value;
    });

// OTEL_EXPORTER_OTLP_HEADERS: "name=value,name2=value2", values percent-encoded (the OpenTelemetry
// specification's format), sent with every export, e.g. a vendor's API key.
const otlpHeaders = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const headers: Record<string, string> = {};
      if (raw === undefined || raw.trim() === '') return headers;
      for (const pair of raw.split(',')) {
        const equals = pair.indexOf('=');
        const header = pair.slice(0, equals).trim();
        if (equals < 1 || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(header)) {
          ctx.addIssue({
            code: 'custom',
            message: `${name} must be name=value pairs separated by commas, got "${pair}"`,
          });
          return z.NEVER;
        }
        try {
          headers[header.toLowerCase()] = decodeURIComponent(pair.slice(equals + 1).trim());
        } catch {
          ctx.addIssue({ code: 'custom', message: `${name}: the value of ${header} is not percent-encoded correctly` });
          return z.NEVER;
        }
      }
      return headers;
    });

export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const configSchema = z.object({
  DATABASE_URL: postgresUrl('DATABASE_URL'),
  // A streaming replica of DATABASE_URL for the dashboard's and the list APIs' reads; writes, and reads
  // that must see a write just made, stay on the primary (lib/database/read-replica.ts). A replica
  // further behind than HOOKLINE_READ_MAX_LAG, or unreachable, is not read from until it catches up.
  HOOKLINE_READ_DATABASE_URL: postgresUrl('HOOKLINE_READ_DATABASE_URL'),
  HOOKLINE_READ_MAX_LAG: duration('HOOKLINE_READ_MAX_LAG', '10s'),
  HOST: z.string().optional().default('127.0.0.1'),
  PORT: integer('PORT', 3000, 1, 65535),
  HOOKLINE_DATA_DIR: z.string().optional().default('.data'),
  // `npm start` applies pending migrations; false: a deploy runs `npm run migrate` first, and a start
  // against an older schema is refused.
  HOOKLINE_MIGRATE_ON_START: boolean('HOOKLINE_MIGRATE_ON_START', true),
  // Encrypts endpoint signing secrets at rest (lib/runtime/secret-box.ts); unset: a key generated into
  // <HOOKLINE_DATA_DIR>/encryption-key. _PREVIOUS: the key being replaced, accepted until resealed.
  HOOKLINE_ENCRYPTION_KEY: z
    .string()
    .trim()
    .min(32, 'HOOKLINE_ENCRYPTION_KEY must be at least 32 characters (openssl rand -base64 32)')
    .optional(),
  HOOKLINE_ENCRYPTION_KEY_PREVIOUS: z
    .string()
    .trim()
    .min(32, 'HOOKLINE_ENCRYPTION_KEY_PREVIOUS must be at least 32 characters')
    .optional(),
  HOOKLINE_EMBEDDED_PG_PORT: integer('HOOKLINE_EMBEDDED_PG_PORT', 54329, 1, 65535),
  HOOKLINE_ADMIN_EMAIL: z.string().optional().default('admin@hookline.local'),
  HOOKLINE_ADMIN_PASSWORD: z.string().optional(),
  HOOKLINE_WORKER_CONCURRENCY: integer('HOOKLINE_WORKER_CONCURRENCY', 256, 1, 10_000),
  HOOKLINE_WORKER_BATCH_SIZE: integer('HOOKLINE_WORKER_BATCH_SIZE', 500, 1, 10_000),
  HOOKLINE_LEASE_SECONDS: integer('HOOKLINE_LEASE_SECONDS', 10, 2, 3600),
  HOOKLINE_POLL_INTERVAL_MS: integer('HOOKLINE_POLL_INTERVAL_MS', 1000, 10, 60_000),
  // Each flush pays a fixed cost (its statement, four rollup upserts) whatever its size. Every 5 ms a
  // drain flushed ~30 results at a time and PostgreSQL spent a quarter more CPU than every 50 ms; two
  // workers were 8 % slower than one at 5 ms and as fast at 50 (20k drains, bench/README.md). A result
  // reaches the dashboard at most that much later, and a worker killed with -9 sends that much again.
  HOOKLINE_FLUSH_INTERVAL_MS: integer('HOOKLINE_FLUSH_INTERVAL_MS', 50, 1, 10_000),
  HOOKLINE_FLUSH_MAX_RESULTS: integer('HOOKLINE_FLUSH_MAX_RESULTS', 500, 1, 10_000),
  HOOKLINE_DELIVERY_TIMEOUT_MS: integer('HOOKLINE_DELIVERY_TIMEOUT_MS', 15_000, 100, 300_000),
  HOOKLINE_RESPONSE_KEEP_BYTES: integer('HOOKLINE_RESPONSE_KEEP_BYTES', 4096, 0, 1_048_576),
  HOOKLINE_RESPONSE_DRAIN_BYTES: integer('HOOKLINE_RESPONSE_DRAIN_BYTES', 1_048_576, 0, 1_073_741_824),
  // A success is recorded on its delivery (status, time, duration); its own attempt row with the
  // request and response headers and body costs a third of the WAL per event (bench/README.md).
  HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS: boolean('HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS', false),
  // The worker's own commits (fan-outs, results, leases) do not wait for the WAL flush: a PostgreSQL
  // crash can forget its last ~600 ms of them, and those deliveries are sent again (worker/worker-connections.ts).
  HOOKLINE_WORKER_SYNCHRONOUS_COMMIT: boolean('HOOKLINE_WORKER_SYNCHRONOUS_COMMIT', false),
  HOOKLINE_RETRY_SCHEDULE: z
    .string()
    .optional()
    .default('0,5s,5m,30m,2h,5h,10h,10h')
    .transform((raw, ctx) => {
      try {
        const delays = parseDurationList(raw);
        if (delays.length === 0) throw new Error('it is empty');
        return delays;
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `HOOKLINE_RETRY_SCHEDULE must be a comma-separated list of delays such as "0,5s,5m,2h": ${(error as Error).message}`,
        });
        return z.NEVER;
      }
    }),
  HOOKLINE_ALLOW_LOOPBACK: boolean('HOOKLINE_ALLOW_LOOPBACK', false),
  HOOKLINE_ALLOW_PRIVATE_NETWORKS: boolean('HOOKLINE_ALLOW_PRIVATE_NETWORKS', false),
  // Delivery worker (worker/). Circuit breaker: after this many failed attempts in a row to one endpoint,
  // stop sending to it for HOOKLINE_CIRCUIT_OPEN_BASE, then probe once; each failed probe doubles the
  // wait up to HOOKLINE_CIRCUIT_OPEN_MAX.
  HOOKLINE_CIRCUIT_FAILURE_THRESHOLD: integer('HOOKLINE_CIRCUIT_FAILURE_THRESHOLD', 10, 1, 1_000_000),
  HOOKLINE_CIRCUIT_OPEN_BASE: duration('HOOKLINE_CIRCUIT_OPEN_BASE', '30s'),
  HOOKLINE_CIRCUIT_OPEN_MAX: duration('HOOKLINE_CIRCUIT_OPEN_MAX', '30m'),
  // Disable an endpoint whose failure streak (no success at all) lasted this long; 0 = never.
  HOOKLINE_AUTO_DISABLE_AFTER: duration('HOOKLINE_AUTO_DISABLE_AFTER', '5d'),
  // Finished deliveries (with their attempts) and orphaned messages are deleted after this long.
  HOOKLINE_RETENTION: duration('HOOKLINE_RETENTION', '30d'),
  // Per-minute rollups and queue depth samples are small and kept longer for the charts.
  HOOKLINE_STATS_RETENTION: duration('HOOKLINE_STATS_RETENTION', '90d'),
  // The audit log: one row per change an operator or key made, kept a year by default.
  HOOKLINE_AUDIT_RETENTION: duration('HOOKLINE_AUDIT_RETENTION', '365d'),
  // Prometheus /metrics of the worker; 0 = no metrics server.
  HOOKLINE_METRICS_PORT: integer('HOOKLINE_METRICS_PORT', 9464, 0, 65535),
  HOOKLINE_METRICS_HOST: z.string().optional().default('127.0.0.1'),
  // Background jobs (replay by filter, recover, backfill): rows per batch transaction, and a pause
  // between batches that leaves the database to deliveries (worker/jobs/job-runner.ts).
  HOOKLINE_JOB_BATCH_SIZE: integer('HOOKLINE_JOB_BATCH_SIZE', 2000, 1, 50_000),
  HOOKLINE_JOB_BATCH_PAUSE_MS: integer('HOOKLINE_JOB_BATCH_PAUSE_MS', 0, 0, 60_000),
  // On SIGTERM, how long in-flight deliveries may take to finish before they are released.
  HOOKLINE_SHUTDOWN_GRACE: duration('HOOKLINE_SHUTDOWN_GRACE', '10s'),
  // Operational alerts (README, "Operational events"): an endpoint is failing after this many failed
  // attempts in a row, or a streak with no success this long; recovered once it has not failed for
  // HOOKLINE_ALERT_RECOVERED_AFTER. One issue sends at most one notification per MIN_INTERVAL (a
  // flapping endpoint: 6 an hour at most), a reminder every REMINDER_INTERVAL while it stays open.
  HOOKLINE_ALERT_FAILING_AFTER_FAILURES: integer('HOOKLINE_ALERT_FAILING_AFTER_FAILURES', 5, 1, 1_000_000),
  HOOKLINE_ALERT_FAILING_AFTER: duration('HOOKLINE_ALERT_FAILING_AFTER', '1m'),
  HOOKLINE_ALERT_RECOVERED_AFTER: duration('HOOKLINE_ALERT_RECOVERED_AFTER', '5m'),
  HOOKLINE_ALERT_MIN_INTERVAL: duration('HOOKLINE_ALERT_MIN_INTERVAL', '10m'),
  HOOKLINE_ALERT_REMINDER_INTERVAL: duration('HOOKLINE_ALERT_REMINDER_INTERVAL', '1h'),
  // An endpoint's issues resolve by themselves when it recovers; false: an operator resolves them.
  HOOKLINE_ALERT_AUTO_RESOLVE: boolean('HOOKLINE_ALERT_AUTO_RESOLVE', true),
  HOOKLINE_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).optional().default('info'),
  // REST API. A message payload above this size is refused with 413 before it is parsed.
  HOOKLINE_MAX_PAYLOAD_BYTES: integer('HOOKLINE_MAX_PAYLOAD_BYTES', 1_048_576, 1024, 67_108_864),
  // Requests per second per API key or admin session (token bucket, burst = one second's worth); 0 = off.
  HOOKLINE_API_RATE_LIMIT: integer('HOOKLINE_API_RATE_LIMIT', 100, 0, 1_000_000),
  // A dashboard session's absolute lifetime: it ends this long after sign-in, however busy.
  HOOKLINE_SESSION_TTL_HOURS: integer('HOOKLINE_SESSION_TTL_HOURS', 168, 1, 8760),
  // ... and its idle lifetime: it ends when no request used it for this long. An open dashboard page
  // refreshes live, so it keeps its session; a laptop closed overnight does not.
  HOOKLINE_SESSION_IDLE_TIMEOUT: duration('HOOKLINE_SESSION_IDLE_TIMEOUT', '12h'),
  // How long an invitation link can be accepted.
  HOOKLINE_INVITATION_TTL: duration('HOOKLINE_INVITATION_TTL', '72h'),
  // A payload search (GET .../messages or .../deliveries with search or payloadPath) scans back through
  // time for this long per request, then answers what it found with a cursor to go on from there.
  HOOKLINE_SEARCH_BUDGET_MS: integer('HOOKLINE_SEARCH_BUDGET_MS', 1500, 1, 60_000),
  // Behind a reverse proxy that terminates TLS: believe its X-Forwarded-Proto and X-Forwarded-Host.
  // Off, those headers are dropped on arrival, since any client could send them.
  HOOKLINE_TRUST_PROXY: boolean('HOOKLINE_TRUST_PROXY', false),
  // The address browsers reach Hookline at, for portal session URLs and the dashboard links in
  // operational payloads. Unset: portal links use the origin of the request that created the session
  // (right when the operator's backend calls the public address); operational links use http://HOST:PORT.
  HOOKLINE_PUBLIC_URL: z
    .url({
      protocol: /^https?$/,
      error: 'HOOKLINE_PUBLIC_URL must be an http(s) URL such as https://hooks.example.com',
    })
    .refine((value) => !URL.canParse(value) || ['', '/'].includes(new URL(value).pathname + new URL(value).search), {
      error: 'HOOKLINE_PUBLIC_URL must be an origin without a path, such as https://hooks.example.com',
    })
    .optional(),
  // Single sign-on with OpenID Connect (lib/domain/auth/sso): the issuer's URL (its
  // /.well-known/openid-configuration is read), and the client registered there for Hookline, whose
  // redirect URI is <HOOKLINE_PUBLIC_URL or the browser's origin>/api/auth/sso/callback.
  HOOKLINE_OIDC_ISSUER: z
    .url({
      protocol: /^https?$/,
      error: 'HOOKLINE_OIDC_ISSUER must be an http(s) URL such as https://accounts.example.com',
    })
    .optional(),
  HOOKLINE_OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  HOOKLINE_OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  // Unset: only existing members (or emails with an open invitation) sign in by SSO. Set: a verified
  // email that is no member yet becomes one, with this role and every app.
  HOOKLINE_OIDC_DEFAULT_ROLE: z
    .enum(['owner', 'admin', 'developer', 'viewer'], {
      error: 'HOOKLINE_OIDC_DEFAULT_ROLE must be owner, admin, developer or viewer',
    })
    .optional(),
  // false: members sign in by SSO only (POST /api/auth/sign-in answers 403 password_sign_in_disabled).
  HOOKLINE_PASSWORD_SIGN_IN: boolean('HOOKLINE_PASSWORD_SIGN_IN', true),
  // Tracing (lib/runtime/tracing-settings.ts), off unless a collector is named: the standard
  // OpenTelemetry variables, of which Hookline reads these. An endpoint gets /v1/traces appended;
  // a traces endpoint is used as given. OTEL_SDK_DISABLED=true turns tracing off whatever is set.
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint('OTEL_EXPORTER_OTLP_ENDPOINT'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpEndpoint('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
  OTEL_EXPORTER_OTLP_HEADERS: otlpHeaders('OTEL_EXPORTER_OTLP_HEADERS'),
  // The exporter sends OTLP/HTTP with JSON bodies, which every collector's HTTP receiver (port 4318)
  // accepts beside protobuf; gRPC (port 4317) is another receiver, so asking for it is refused.
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(['http/json', 'http/protobuf'], {
      error:
        'OTEL_EXPORTER_OTLP_PROTOCOL must be http/json or http/protobuf (Hookline exports OTLP over HTTP, not gRPC)',
    })
    .optional(),
  OTEL_SERVICE_NAME: z.string().trim().min(1, 'OTEL_SERVICE_NAME must not be empty').optional(),
  OTEL_TRACES_SAMPLER: z
    .enum(TRACES_SAMPLERS, { error: `OTEL_TRACES_SAMPLER must be one of ${TRACES_SAMPLERS.join(', ')}` })
    .optional()
    .default('parentbased_always_on'),
  // The ratio of the traceidratio samplers, 0 to 1.
  OTEL_TRACES_SAMPLER_ARG: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return 1;
      const ratio = Number(raw);
      if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
        ctx.addIssue({ code: 'custom', message: `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${raw}"` });
        return z.NEVER;
      }
      return ratio;
    }),
  OTEL_SDK_DISABLED: boolean('OTEL_SDK_DISABLED', false),
  // With tracing on, the worker sends each attempt span's traceparent to the receiver (worker/attempt-spans.ts);
  // false keeps the spans and sends no trace header. With tracing off none is ever sent.
  HOOKLINE_PROPAGATE_TRACE_CONTEXT: boolean('HOOKLINE_PROPAGATE_TRACE_CONTEXT', true),
});

// What no single variable can say: the SSO settings go together, and passwords need SSO to be turned off.
const checkedConfigSchema = configSchema.superRefine((config, ctx) => {
  const oidc = [config.HOOKLINE_OIDC_ISSUER, config.HOOKLINE_OIDC_CLIENT_ID, config.HOOKLINE_OIDC_CLIENT_SECRET];
  if (oidc.some(Boolean) && !oidc.every(Boolean)) {
    ctx.addIssue({
      code: 'custom',
      path: ['HOOKLINE_OIDC_ISSUER'],
      message:
        'HOOKLINE_OIDC_ISSUER, HOOKLINE_OIDC_CLIENT_ID and HOOKLINE_OIDC_CLIENT_SECRET are set together or not at all',
    });
  }
  // Without SSO, turning passwords off would leave nobody a way in.
  if (!config.HOOKLINE_PASSWORD_SIGN_IN && !config.HOOKLINE_OIDC_ISSUER) {
    ctx.addIssue({
      code: 'custom',
      path: ['HOOKLINE_PASSWORD_SIGN_IN'],
      message: 'HOOKLINE_PASSWORD_SIGN_IN=false needs single sign-on configured (HOOKLINE_OIDC_ISSUER)',
    });
  }
});

export type Config = z.infer<typeof configSchema>;

/** Every variable Hookline reads; test/readme.test.ts keeps the README's table in step with it. */
export const configVariables = Object.keys(configSchema.shape);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws ConfigError naming every bad variable at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = checkedConfigSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => {
      const variable = issue.path.join('.');
      return issue.message.includes(variable) ? issue.message : `${variable}: ${issue.message}`;
    }),
  );
}
