import type { Metadata } from 'next';
import { EndpointsList } from '@/components/endpoints/endpoints-list';

export const metadata: Metadata = { title: 'Endpoints' };

export default async function AppEndpointsPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  return <EndpointsList appId={appId} />;
}
