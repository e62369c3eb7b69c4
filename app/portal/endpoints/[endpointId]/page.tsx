import type { Metadata } from 'next';
import { PortalEndpointDetail } from '@/components/portal/portal-endpoint-detail';

export const metadata: Metadata = { title: 'Endpoint' };

export default async function PortalEndpointPage({ params }: { params: Promise<{ endpointId: string }> }) {
  const { endpointId } = await params;
  return <PortalEndpointDetail endpointId={endpointId} />;
}
