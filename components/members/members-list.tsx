'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { appsQuery } from '@/lib/client/queries/apps';
import {
  createInvitation,
  invitationsQuery,
  memberKeys,
  membersQuery,
  removeMember,
  revokeInvitation,
  updateMember,
} from '@/lib/client/queries/members';
import type { CreatedInvitation, Member } from '@/lib/contract/schemas/members';
import { ROLES, type Role } from '@/lib/domain/auth/roles';
import { formatRelative, formatTime } from '../format';
import { OneTimeSecret } from '../shared/one-time-secret';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { Field, Input, Select } from '../ui/field';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';
import { AppSelect } from '../filters/app-select';

const ROLE_HINT: Record<Role, string> = {
  owner: 'members and settings, and everything an admin does',
  admin: 'everything operational: apps, endpoints, replays, API keys, alerts',
  developer: 'apps, endpoints, event types, messages and replays within its apps',
  viewer: 'reads everything, changes nothing',
};

export function MembersList({ currentUserId }: { currentUserId: string }) {
  const members = useQuery(membersQuery());
  const invitations = useQuery(invitationsQuery());
  const apps = useQuery(appsQuery());
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: memberKeys.all });
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const changeRole = useMutation({
    mutationFn: ({ id, ...change }: { id: string; role?: Role; appIds?: string[] }) => updateMember(id, change),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (member: Member) => removeMember(member.id),
    onSuccess: async () => {
      await refresh();
      setRemoving(null);
    },
  });
  const revoke = useMutation({ mutationFn: revokeInvitation, onSettled: refresh });
  const appName = (id: string) => apps.data?.data.find((app) => app.id === id)?.name ?? id;
  return (
    <div className="space-y-4">
      <PageHeader
        title="Members"
        subtitle="Who can sign in, and what each role may do"
        actions={
          <Button variant="primary" onClick={() => setInviting(true)}>
            Invite member
          </Button>
        }
      />
      <Card>
        {members.isPending ? (
          <Loading label="Loading members…" />
        ) : members.isError ? (
          <ErrorState error={members.error} retry={() => void members.refetch()} />
        ) : (
          <Table data-testid="members-table">
            <thead>
              <tr>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th>Apps</Th>
                <Th>Second factor</Th>
                <Th>Joined</Th>
                <Th />
              </tr>
            </thead>
            <tbody>
              {members.data.data.map((member) => (
                <Tr key={member.id} data-testid="member-row">
                  <Td className="font-medium">
                    {member.email} {member.id === currentUserId ? <Badge>you</Badge> : null}
                  </Td>
                  <Td>
                    <Select
                      aria-label={`Role of ${member.email}`}
                      value={member.role}
                      disabled={changeRole.isPending}
                      onChange={(event) => changeRole.mutate({ id: member.id, role: event.target.value as Role })}
                    >
                      {ROLES.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </Select>
                  </Td>
                  <Td className="text-xs">
                    {member.appIds.length > 1 ? (
                      // Several apps are set through the API (PATCH /members/{id} {appIds}); shown here.
                      member.appIds.map((id) => <Badge key={id}>{appName(id)}</Badge>)
                    ) : (
                      <AppSelect
                        allowAll
                        label={`Apps of ${member.email}`}
                        value={member.appIds[0]}
                        disabled={changeRole.isPending}
                        onChange={(appId) => changeRole.mutate({ id: member.id, appIds: appId ? [appId] : [] })}
                      />
                    )}
                  </Td>
                  <Td className="text-xs text-zinc-500">{member.totpEnabled ? 'on' : 'off'}</Td>
                  <Td className="text-xs text-zinc-500">{formatTime(member.createdAt)}</Td>
                  <Td className="text-right">
                    <Button size="sm" variant="ghost" className="text-red-700" onClick={() => setRemoving(member)}>
                      Remove
                    </Button>
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
        <div className="px-4 pb-3">
          <InlineError error={changeRole.error} />
        </div>
      </Card>
      <Card>
        <CardHeader title="Open invitations" subtitle="Links not yet used; revoke one to stop it working" />
        {invitations.isPending ? (
          <Loading label="Loading invitations…" />
        ) : invitations.isError ? (
          <ErrorState error={invitations.error} retry={() => void invitations.refetch()} />
        ) : invitations.data.data.length === 0 ? (
          <Empty title="No open invitations" />
        ) : (
          <Table data-testid="invitations-table">
            <tbody>
              {invitations.data.data.map((invitation) => (
                <Tr key={invitation.id}>
                  <Td className="font-medium">{invitation.email}</Td>
                  <Td>
                    <Badge>{invitation.role}</Badge>
                  </Td>
                  <Td className="text-xs text-zinc-500">expires {formatRelative(invitation.expiresAt)}</Td>
                  <Td className="text-right">
                    <Button size="sm" variant="ghost" onClick={() => revoke.mutate(invitation.id)}>
                      Revoke
                    </Button>
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      <dl className="grid gap-1 text-xs text-zinc-500">
        {ROLES.map((role) => (
          <div key={role}>
            <dt className="inline font-medium text-zinc-700">{role}</dt>: <dd className="inline">{ROLE_HINT[role]}</dd>
          </div>
        ))}
      </dl>
      {inviting ? (
        <InviteDialog
          onClose={() => {
            setInviting(false);
            void refresh();
          }}
        />
      ) : null}
      {removing ? (
        <Dialog open title={`Remove ${removing.email}?`} onClose={() => setRemoving(null)}>
          <p className="text-sm text-zinc-700">
            Their sessions end at once. API keys they created keep working; revoke them on the API keys page if needed.
          </p>
          <InlineError error={remove.error} />
          <div className="mt-4 flex justify-end gap-2">
            <Button onClick={() => setRemoving(null)}>Cancel</Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(removing)}>
              Remove member
            </Button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}

function InviteDialog({ onClose }: { onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [appId, setAppId] = useState('');
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const create = useMutation({
    mutationFn: () => createInvitation({ email: email.trim(), role, ...(appId ? { appIds: [appId] } : {}) }),
    onSuccess: setCreated,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Dialog open title="Invite a member" onClose={onClose}>
      {created ? (
        <div className="space-y-3">
          <OneTimeSecret
            value={created.url}
            testId="invitation-url"
            note={`Send this link to ${created.invitation.email}. It is shown only now, works once, and expires ${formatRelative(created.invitation.expiresAt)}.`}
          />
          <div className="flex justify-end">
            <Button variant="primary" onClick={onClose}>
              Done
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-3">
          <Field label="Email">
            <Input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
          </Field>
          <Field label="Role" hint={ROLE_HINT[role]}>
            <Select value={role} onChange={(event) => setRole(event.target.value as Role)}>
              {ROLES.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Apps" hint="Limit to one app, or leave it on every app">
            <AppSelect
              allowAll
              label="Apps"
              className="w-full"
              value={appId || undefined}
              onChange={(chosen) => setAppId(chosen ?? '')}
            />
          </Field>
          <InlineError error={create.error} />
          <div className="flex justify-end gap-2">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              Create invitation link
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
