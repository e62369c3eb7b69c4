import type { Metadata } from 'next';
import { AcceptInvitationForm } from '@/components/members/accept-invitation-form';
import { getApiSettings } from '@/lib/runtime/api-settings';

export const metadata: Metadata = { title: 'Accept invitation' };
// Whether passwords are on comes from the environment of the running server, not of the build.
export const dynamic = 'force-dynamic';

export default function InvitePage() {
  const settings = getApiSettings();
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="text-xl font-semibold tracking-tight">Hookline</div>
          <p className="text-sm text-zinc-500">
            {settings.passwordSignIn
              ? 'You are invited: choose a password to join'
              : 'You are invited: sign in with SSO to join'}
          </p>
        </div>
        <AcceptInvitationForm password={settings.passwordSignIn} sso={settings.oidc !== null} />
      </div>
    </main>
  );
}
