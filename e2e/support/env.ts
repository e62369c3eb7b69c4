// What the global setup hands to the tests (through the environment: Playwright starts its worker
// processes after the global setup, so they inherit these).
export interface E2eEnv {
  baseUrl: string;
  receiverUrl: string;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
  /** The server's database, for fixtures the API cannot make (messages of hours and days ago). */
  databaseUrl: string;
  appId: string;
  appName: string;
  endpointId: string;
  /** The OpenID provider the server signs in with (test/support/oidc-provider.ts). */
  oidcIssuer: string;
}

const VARIABLE = 'HOOKLINE_E2E_ENV';

export function publishE2eEnv(env: E2eEnv): void {
  process.env[VARIABLE] = JSON.stringify(env);
}

export function e2eEnv(): E2eEnv {
  const raw = process.env[VARIABLE];
  if (!raw)
    throw new Error(`${VARIABLE} is not set: run the e2e tests with \`npm run test:e2e\` so the global setup runs`);
  return JSON.parse(raw) as E2eEnv;
}
