'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiRequestError, apiFetch } from '@/lib/client/api-client';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Field, Input } from '../ui/field';
import { InlineError } from '../ui/states';

export function SignInForm({ next }: { next: string }) {
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
  return (
    <Card className="p-5">
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
