import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DeliveriesExplorer } from '@/components/deliveries/deliveries-explorer';
import { Loading } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Deliveries' };

export default function DeliveriesPage() {
  return (
    <Suspense fallback={<Loading />}>
      <DeliveriesExplorer />
    </Suspense>
  );
}
