import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';
import { listMemberSessions } from '@/lib/domain/members/list-member-sessions';
import { revokeMemberSessions } from '@/lib/domain/members/revoke-member-sessions';

export const runtime = 'nodejs';

export const GET = route(operations.listMemberSessions, ({ params }) => listMemberSessions(params));
export const DELETE = route(operations.revokeMemberSessions, ({ params }) => revokeMemberSessions(params));
