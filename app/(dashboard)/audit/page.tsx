import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AuditLog } from '@/components/audit/audit-log';
import { Loading } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Audit log' };

export default function AuditPage() {
  return (
    <Suspense fallback={<Loading />}>
      <AuditLog />
    </Suspense>
  );
}
