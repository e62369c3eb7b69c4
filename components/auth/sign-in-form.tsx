'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiRequestError, apiFetch } from '@/lib/client/api-client';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Field, Input } from '../ui/field';
import { InlineError } from '../ui/states';

/**
 * Password sign-in and, when configured, "Sign in with SSO" (a plain link: the server redirects to the
 * identity provider). With HOOKLINE_PASSWORD_SIGN_IN=false only the SSO button is shown.
 */
export function SignInForm({
  next,
  password: passwordSignIn = true,
  sso = false,
  ssoError = null,
}: {
  next: string;
  password?: boolean;
  sso?: boolean;
  /** Why the last SSO attempt was refused, as the page says it. */
  ssoError?: string | null;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Asked for once the server says the password was right and the member has a second factor.
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  const signIn = useMutation({
    mutationFn: () =>
      apiFetch<void>('/api/auth/sign-in', {
        method: 'POST',
        body: { email, password, ...(needsCode ? { code } : {}) },
      }),
    // A full navigation, so the server layout sees the new cookie and no signed-out cache survives.
    onSuccess: () => window.location.assign(next),
    onError: (error) => {
      if (error instanceof ApiRequestError && error.code === 'second_factor_required') setNeedsCode(true);
    },
  });
  const showError = !(signIn.error instanceof ApiRequestError && signIn.error.code === 'second_factor_required');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  const ssoLink = sso ? (
    <a
      href={`/api/auth/sso/start?next=${encodeURIComponent(next)}`}
      className="flex w-full items-center justify-center rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
    >
      Sign in with SSO
    </a>
  ) : null;
  const ssoAlert = ssoError ? (
    <div role="alert" className="mb-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {ssoError}
    </div>
  ) : null;
  if (!passwordSignIn) {
    return (
      <Card className="p-5">
        {ssoAlert}
        {ssoLink ?? <p className="text-sm text-zinc-600">No sign-in method is configured.</p>}
      </Card>
    );
  }
  return (
    <Card className="p-5">
      {ssoAlert}
      {ssoLink ? (
        <div className="mb-4 space-y-3">
          {ssoLink}
          <div className="text-center text-xs text-zinc-400">or with your password</div>
        </div>
      ) : null}
      <form onSubmit={submit} className="space-y-3">
        <Field label="Email">
          <Input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label="Password">
          <Input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        {needsCode ? (
          <Field label="Authenticator code">
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              required
              autoFocus
              value={code}
              onChange={(e) => setCode(e.target.value.trim())}
            />
          </Field>
        ) : null}
        <InlineError error={showError ? signIn.error : null} />
        <Button type="submit" variant="primary" className="w-full" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </Card>
  );
}
