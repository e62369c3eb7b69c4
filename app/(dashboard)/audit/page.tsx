import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AuditLog } from '@/components/audit/audit-log';
import { Forbidden } from '@/components/auth/forbidden';
import { Loading } from '@/components/ui/states';
import { pageAccess } from '@/lib/http/auth/page-permission';

export const metadata: Metadata = { title: 'Audit log' };

export default async function AuditPage() {
  const access = await pageAccess('/audit');
  if (!access.allowed) return <Forbidden title="Audit log" role={access.session.role} refusal={access.refusal} />;
  return (
    <Suspense fallback={<Loading />}>
      <AuditLog />
    </Suspense>
  );
}
