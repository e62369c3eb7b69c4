import type { Metadata } from 'next';
import { Suspense } from 'react';
import { EndpointDetail } from '@/components/endpoints/endpoint-detail';
import { Loading } from '@/components/ui/states';
import { findEndpoint } from '@/lib/domain/endpoints/find-endpoint';
import { requirePortalResource } from '@/lib/http/portal/require-portal-resource';
import { portalSessionOfRequest } from '../../portal-session-of-request';
import { portalTitle } from '../../portal-title';

export const generateMetadata = (): Promise<Metadata> => portalTitle('Endpoint');

export default async function PortalEndpointPage({ params }: { params: Promise<{ endpointId: string }> }) {
  const { endpointId } = await params;
  await requirePortalResource(endpointId, findEndpoint);
  const session = await portalSessionOfRequest();
  // The traffic range lives in the URL (useSearchParams), which needs a Suspense boundary.
  return session ? (
    <Suspense fallback={<Loading />}>
      <EndpointDetail appId={session.appId} endpointId={endpointId} />
    </Suspense>
  ) : null;
}
