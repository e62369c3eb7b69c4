import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';
import { createInvitation } from '@/lib/domain/members/create-invitation';
import { listInvitations } from '@/lib/domain/members/list-invitations';
import { invitationUrl } from '@/lib/http/members/invitation-url';

export const runtime = 'nodejs';

export const GET = route(operations.listInvitations, () => listInvitations());
export const POST = route(operations.createInvitation, async ({ request, principal, body }) => {
  const { invitation, token } = await createInvitation({
    ...body,
    invitedBy: principal.kind === 'admin' ? principal.userId : null,
  });
  return { invitation, url: invitationUrl(request, token) };
});
