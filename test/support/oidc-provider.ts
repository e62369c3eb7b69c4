// A real OpenID provider (the oidc-provider package, the certified Node.js implementation) on
// 127.0.0.1 with a random port, with one client registered for Hookline. Its login and consent are
// completed programmatically: whoever reaches /interaction/<uid> is signed in as `provider.signInAs`
// and consents to the scopes asked for, so a test (or a browser) only follows redirects. A test in
// another process (Playwright's workers) sets that account with `POST /__control/account`
// {sub, email, emailVerified}: see setProviderAccount.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error oidc-provider 9 ships no types (@types/oidc-provider describes 8); only the few
// members used below are needed.
import ProviderImport from 'oidc-provider';

export interface TestAccount {
  email: string;
  emailVerified: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by subject; change freely between sign-ins. */
  accounts: Map<string, TestAccount>;
  /** The subject the next interaction signs in as. */
  signInAs: string;
  close(): Promise<void>;
}

interface Interaction {
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, string>;
  grantId?: string;
  session?: { accountId: string };
}

interface ProviderInstance {
  callback(): (req: unknown, res: unknown) => void;
  interactionDetails(req: unknown, res: unknown): Promise<Interaction>;
  interactionResult(req: unknown, res: unknown, result: Record<string, unknown>): Promise<string>;
  Grant: new (properties: { accountId: string; clientId: string }) => {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  };
}
const Provider = ProviderImport as new (issuer: string, configuration: Record<string, unknown>) => ProviderInstance;

export async function startOidcProvider({
  redirectUris,
  clientId = 'hookline',
  clientSecret = 'hookline-test-client-secret',
}: {
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
}): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const accounts = new Map<string, TestAccount>();

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // Every client must send a PKCE challenge, so a Hookline that stopped sending one fails the test.
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['hookline test provider cookie key'] },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: account.email, email_verified: account.emailVerified }),
      };
    },
  });
  const handle = provider.callback();
  const state: TestOidcProvider = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signInAs: '',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  server.on('request', (req, res) => {
    if (req.method === 'POST' && req.url === '/__control/account') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const { sub, email, emailVerified } = JSON.parse(body) as { sub: string } & TestAccount;
        accounts.set(sub, { email, emailVerified });
        state.signInAs = sub;
        res.writeHead(204).end();
      });
      return;
    }
    if (!req.url?.startsWith('/interaction/')) {
      handle(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        let result: Record<string, unknown>;
        if (details.prompt.name === 'login') {
          result = { login: { accountId: state.signInAs } };
        } else {
          const grant = new provider.Grant({ accountId: details.session!.accountId, clientId });
          grant.addOIDCScope(details.params.scope ?? 'openid');
          result = { consent: { grantId: await grant.save() } };
        }
        const returnTo = await provider.interactionResult(req, res, result);
        res.writeHead(303, { location: returnTo }).end();
      } catch (error) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      }
    })();
  });
  return state;
}

/** Which account the provider at `issuer` signs in next (from another process than the one running it). */
export async function setProviderAccount(issuer: string, account: { sub: string } & TestAccount): Promise<void> {
  const response = await fetch(`${issuer}/__control/account`, { method: 'POST', body: JSON.stringify(account) });
  if (response.status !== 204) throw new Error(`The test provider answered ${response.status}`);
}

/** A cookie jar for one origin, enough to follow the provider's redirects by hand with fetch. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}
