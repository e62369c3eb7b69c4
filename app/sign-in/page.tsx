import type { Metadata } from 'next';
import { SignInForm } from '@/components/auth/sign-in-form';
import { getApiSettings } from '@/lib/runtime/api-settings';
import { ssoFailureMessage } from '@/lib/domain/auth/sso/sso-error';
import { sameSitePath } from '@/lib/http/auth/same-site-path';

export const metadata: Metadata = { title: 'Sign in' };
// The sign-in methods come from the environment of the running server, not of the build.
export const dynamic = 'force-dynamic';

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next, sso_error: ssoError } = await searchParams;
  const settings = getApiSettings();
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="text-xl font-semibold tracking-tight">Hookline</div>
          <p className="text-sm text-zinc-500">Sign in to the webhook dashboard</p>
        </div>
        <SignInForm
          next={sameSitePath(next)}
          password={settings.passwordSignIn}
          sso={settings.oidc !== null}
          ssoError={ssoFailureMessage(typeof ssoError === 'string' ? ssoError : undefined)}
        />
      </div>
    </main>
  );
}
