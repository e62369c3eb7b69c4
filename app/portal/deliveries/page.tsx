import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DeliveriesExplorer } from '@/components/deliveries/deliveries-explorer';
import { Loading } from '@/components/ui/states';
import { portalTitle } from '../portal-title';

export const generateMetadata = (): Promise<Metadata> => portalTitle('Deliveries');

export default function PortalDeliveriesPage() {
  // useSearchParams needs a Suspense boundary. The explorer takes the app from the portal's session.
  return (
    <Suspense fallback={<Loading />}>
      <DeliveriesExplorer />
    </Suspense>
  );
}
