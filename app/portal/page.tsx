import type { Metadata } from 'next';
import { PortalEndpoints } from '@/components/portal/portal-endpoints';

export const metadata: Metadata = { title: 'Endpoints' };

export default function PortalEndpointsPage() {
  return <PortalEndpoints />;
}
