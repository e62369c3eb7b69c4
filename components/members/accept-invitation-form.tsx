'use client';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { acceptInvitation } from '@/lib/client/queries/members';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Field, Input } from '../ui/field';
import { InlineError } from '../ui/states';

/**
 * The invitation's token is the link's fragment (never sent to a server until this form posts it).
 * With HOOKLINE_PASSWORD_SIGN_IN=false there is no password to choose: the invited person joins by
 * signing in with SSO as the invited email (lib/domain/auth/sso/finish-sso-sign-in.ts claims the
 * invitation), and gets no password.
 */
export function AcceptInvitationForm({
  password: passwordSignIn = true,
  sso = false,
}: {
  password?: boolean;
  sso?: boolean;
}) {
  if (!passwordSignIn) return <JoinWithSso sso={sso} />;
  return <ChoosePassword sso={sso} />;
}

const SSO_LINK_CLASS =
  'flex w-full items-center justify-center rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm font-medium text-zinc-800 hover:bg-zinc-50';

function JoinWithSso({ sso }: { sso: boolean }) {
  return (
    <Card className="space-y-3 p-5">
      <p className="text-sm text-zinc-700" data-testid="invitation-sso-only">
        Passwords are turned off here. Sign in with SSO as the email address this invitation was sent to: you join with
        the role it gives you.
      </p>
      {sso ? (
        <a href={`/api/auth/sso/start?next=${encodeURIComponent('/overview')}`} className={SSO_LINK_CLASS}>
          Sign in with SSO
        </a>
      ) : (
        <p className="text-sm text-zinc-600">No sign-in method is configured.</p>
      )}
    </Card>
  );
}

function ChoosePassword({ sso }: { sso: boolean }) {
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
      {sso ? (
        <div className="mb-4 space-y-3">
          <a href={`/api/auth/sso/start?next=${encodeURIComponent('/overview')}`} className={SSO_LINK_CLASS}>
            Join with SSO instead
          </a>
          <div className="text-center text-xs text-zinc-400">or choose a password</div>
        </div>
      ) : null}
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
