import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';
import { revokeInvitation } from '@/lib/domain/members/revoke-invitation';

export const runtime = 'nodejs';

export const DELETE = route(operations.revokeInvitation, ({ params }) => revokeInvitation(params));
