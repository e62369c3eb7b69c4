import type { Metadata } from 'next';
import { Suspense } from 'react';
import { EndpointDetail } from '@/components/endpoints/endpoint-detail';
import { Loading } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Endpoint' };

export default async function EndpointPage({ params }: { params: Promise<{ appId: string; endpointId: string }> }) {
  const { appId, endpointId } = await params;
  return (
    <Suspense fallback={<Loading />}>
      <EndpointDetail appId={appId} endpointId={endpointId} />
    </Suspense>
  );
}
