'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { apiFetch } from '@/lib/client/api-client';
import {
  confirmTotp,
  disableTotp,
  memberKeys,
  mySessionsQuery,
  revokeMySession,
  signOutEverywhere,
  startTotpEnrolment,
} from '@/lib/client/queries/members';
import { formatRelative, formatTime } from '../format';
import { useMember } from '../auth/member-context';
import { OneTimeSecret } from '../shared/one-time-secret';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardBody, CardHeader } from '../ui/card';
import { Field, Input } from '../ui/field';
import { PageHeader } from '../ui/page-header';
import { ErrorState, InlineError, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';

export function AccountPage() {
  const member = useMember();
  return (
    <div className="space-y-4">
      <PageHeader title="Account" subtitle={member ? `${member.email} · ${member.role}` : undefined} />
      <SessionsCard />
      <SecondFactorCard />
    </div>
  );
}

function SessionsCard() {
  const sessions = useQuery(mySessionsQuery());
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: async ({ id, current }: { id: string; current: boolean }) => {
      await revokeMySession(id);
      return current;
    },
    onSuccess: async (current) => {
      if (current) window.location.assign('/sign-in');
      else await queryClient.invalidateQueries({ queryKey: memberKeys.mySessions() });
    },
  });
  const everywhere = useMutation({
    mutationFn: signOutEverywhere,
    onSuccess: () => window.location.assign('/sign-in'),
  });
  return (
    <Card>
      <CardHeader
        title="My sessions"
        subtitle="Browsers signed in as you; end one you do not recognise"
        actions={
          <Button variant="danger" size="sm" disabled={everywhere.isPending} onClick={() => everywhere.mutate()}>
            Sign out everywhere
          </Button>
        }
      />
      {sessions.isPending ? (
        <Loading label="Loading sessions…" />
      ) : sessions.isError ? (
        <ErrorState error={sessions.error} retry={() => void sessions.refetch()} />
      ) : (
        <Table data-testid="sessions-table">
          <thead>
            <tr>
              <Th>Browser</Th>
              <Th>Address</Th>
              <Th>Signed in</Th>
              <Th>Last active</Th>
              <Th>Ends</Th>
              <Th />
            </tr>
          </thead>
          <tbody>
            {sessions.data.data.map((session) => (
              <Tr key={session.id} data-testid="session-row">
                <Td className="max-w-xs truncate text-xs" title={session.userAgent ?? undefined}>
                  {session.userAgent ?? 'unknown'} {session.current ? <Badge tone="flight">this one</Badge> : null}
                </Td>
                <Td className="font-mono text-xs text-zinc-500">{session.ip ?? '—'}</Td>
                <Td className="text-xs text-zinc-500">{formatTime(session.createdAt)}</Td>
                <Td className="text-xs text-zinc-500">{formatRelative(session.lastSeenAt)}</Td>
                <Td className="text-xs text-zinc-500">{formatTime(session.expiresAt)}</Td>
                <Td className="text-right">
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-red-700"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate({ id: session.id, current: session.current })}
                  >
                    {session.current ? 'Sign out' : 'Revoke'}
                  </Button>
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
      <div className="px-4 pb-3">
        <InlineError error={revoke.error ?? everywhere.error} />
      </div>
    </Card>
  );
}

function SecondFactorCard() {
  const session = useQuery({
    queryKey: ['auth-session'],
    queryFn: ({ signal }) => apiFetch<{ user: { totpEnabled: boolean } }>('/api/auth/session', { signal }),
  });
  const queryClient = useQueryClient();
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const done = async () => {
    setEnrolment(null);
    setCode('');
    await queryClient.invalidateQueries({ queryKey: ['auth-session'] });
  };
  const start = useMutation({ mutationFn: startTotpEnrolment, onSuccess: setEnrolment });
  const confirm = useMutation({ mutationFn: () => confirmTotp(code), onSuccess: done });
  const disable = useMutation({ mutationFn: () => disableTotp(code), onSuccess: done });
  const enabled = session.data?.user.totpEnabled ?? false;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (enabled) disable.mutate();
    else confirm.mutate();
  };
  return (
    <Card>
      <CardHeader
        title="Second factor"
        subtitle="A 6-digit code from an authenticator app (TOTP), asked at every password sign-in"
      />
      <CardBody className="space-y-3">
        {session.isPending ? (
          <Loading />
        ) : enabled ? (
          <p className="text-sm" data-testid="totp-state">
            <Badge tone="ok">on</Badge> Enter a current code to turn it off.
          </p>
        ) : enrolment ? (
          <OneTimeSecret
            value={enrolment.secret}
            testId="totp-secret"
            note="Add this key to your authenticator app (or open the otpauth link below on your phone), then enter the code it shows."
          />
        ) : (
          <div className="flex items-center gap-3">
            <p className="text-sm text-zinc-600" data-testid="totp-state">
              Off.
            </p>
            <Button size="sm" variant="primary" disabled={start.isPending} onClick={() => start.mutate()}>
              Set up a second factor
            </Button>
          </div>
        )}
        {enrolment ? (
          <a className="block break-all text-xs text-zinc-500 underline" href={enrolment.uri}>
            {enrolment.uri}
          </a>
        ) : null}
        {enabled || enrolment ? (
          <form onSubmit={submit} className="flex items-end gap-2">
            <Field label="Code">
              <Input
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                required
                value={code}
                onChange={(event) => setCode(event.target.value.trim())}
              />
            </Field>
            <Button
              type="submit"
              variant={enabled ? 'danger' : 'primary'}
              disabled={confirm.isPending || disable.isPending}
            >
              {enabled ? 'Turn off' : 'Turn on'}
            </Button>
          </form>
        ) : null}
        <InlineError error={start.error ?? confirm.error ?? disable.error} />
      </CardBody>
    </Card>
  );
}
