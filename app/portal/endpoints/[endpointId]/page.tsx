import type { Metadata } from 'next';
import { PortalEndpointDetail } from '@/components/portal/portal-endpoint-detail';
import { findEndpoint } from '@/lib/domain/endpoints/find-endpoint';
import { requirePortalResource } from '@/lib/http/portal/require-portal-resource';

export const metadata: Metadata = { title: 'Endpoint' };

export default async function PortalEndpointPage({ params }: { params: Promise<{ endpointId: string }> }) {
  const { endpointId } = await params;
  await requirePortalResource(endpointId, findEndpoint);
  return <PortalEndpointDetail endpointId={endpointId} />;
}
