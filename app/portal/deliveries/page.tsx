import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PortalDeliveries } from '@/components/portal/portal-deliveries';
import { Loading } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Deliveries' };

export default function PortalDeliveriesPage() {
  // useSearchParams needs a Suspense boundary.
  return (
    <Suspense fallback={<Loading />}>
      <PortalDeliveries />
    </Suspense>
  );
}
