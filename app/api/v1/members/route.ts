import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';
import { listMembers } from '@/lib/domain/members/list-members';

export const runtime = 'nodejs';

export const GET = route(operations.listMembers, () => listMembers());
