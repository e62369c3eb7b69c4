import type { Metadata } from 'next';
import { AcceptInvitationForm } from '@/components/members/accept-invitation-form';

export const metadata: Metadata = { title: 'Accept invitation' };

export default function InvitePage() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="text-xl font-semibold tracking-tight">Hookline</div>
          <p className="text-sm text-zinc-500">You are invited: choose a password to join</p>
        </div>
        <AcceptInvitationForm />
      </div>
    </main>
  );
}
