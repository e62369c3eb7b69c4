import type { Metadata } from 'next';
import { SignInForm } from '@/components/auth/sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

function safeNext(next: string | string[] | undefined): string {
  // Only same-site paths: "//evil.example" would be a protocol-relative redirect off the site.
  if (typeof next === 'string' && next.startsWith('/') && !next.startsWith('//')) return next;
  return '/overview';
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { next } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="text-xl font-semibold tracking-tight">Hookline</div>
          <p className="text-sm text-zinc-500">Sign in to the webhook dashboard</p>
        </div>
        <SignInForm next={safeNext(next)} />
      </div>
    </main>
  );
}
