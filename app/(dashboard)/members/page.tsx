import type { Metadata } from 'next';
import { Forbidden } from '@/components/auth/forbidden';
import { MembersList } from '@/components/members/members-list';
import { pageAccess } from '@/lib/http/auth/page-permission';

export const metadata: Metadata = { title: 'Members' };

export default async function MembersPage() {
  const access = await pageAccess('/members');
  if (!access.allowed) return <Forbidden title="Members" role={access.session.role} refusal={access.refusal} />;
  return <MembersList currentUserId={access.session.userId} />;
}
