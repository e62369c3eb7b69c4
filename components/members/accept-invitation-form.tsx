'use client';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { acceptInvitation } from '@/lib/client/queries/members';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Field, Input } from '../ui/field';
import { InlineError } from '../ui/states';

/** The invitation's token is the link's fragment (never sent to a server until this form posts it). */
export function AcceptInvitationForm() {
  const [token, setToken] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  useEffect(() => {
    setToken(window.location.hash.slice(1) || '');
  }, []);
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token ?? '', password),
    onSuccess: () => window.location.assign('/overview'),
  });
  const mismatch = repeat.length > 0 && repeat !== password;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) accept.mutate();
  };
  if (token === '') {
    return (
      <Card className="p-5">
        <p className="text-sm text-zinc-700" role="alert">
          This link has no invitation in it; open the whole link you were sent.
        </p>
      </Card>
    );
  }
  return (
    <Card className="p-5">
      <form onSubmit={submit} className="space-y-3">
        <Field label="New password" hint="At least 12 characters">
          <Input
            type="password"
            autoComplete="new-password"
            minLength={12}
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <Field label="Repeat password">
          <Input
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(event) => setRepeat(event.target.value)}
          />
        </Field>
        {mismatch ? <p className="text-xs text-red-700">The passwords differ</p> : null}
        <InlineError error={accept.error} />
        <Button type="submit" variant="primary" className="w-full" disabled={accept.isPending || token === null}>
          {accept.isPending ? 'Joining…' : 'Join'}
        </Button>
      </form>
    </Card>
  );
}
