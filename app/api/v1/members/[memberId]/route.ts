import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';
import { removeMember } from '@/lib/domain/members/remove-member';
import { updateMember } from '@/lib/domain/members/update-member';

export const runtime = 'nodejs';

export const PATCH = route(operations.updateMember, ({ params, body }) => updateMember({ ...params, ...body }));
export const DELETE = route(operations.removeMember, ({ params }) => removeMember(params));
