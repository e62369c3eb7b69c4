import type { Metadata } from 'next';
import { EndpointsList } from '@/components/endpoints/endpoints-list';
import { portalSessionOfRequest } from './portal-session-of-request';

export const metadata: Metadata = { title: 'Endpoints' };

export default async function PortalEndpointsPage() {
  const session = await portalSessionOfRequest();
  return session ? <EndpointsList appId={session.appId} /> : null;
}
