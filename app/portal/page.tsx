import type { Metadata } from 'next';
import { EndpointsList } from '@/components/endpoints/endpoints-list';
import { portalSessionOfRequest } from './portal-session-of-request';
import { portalTitle } from './portal-title';

export const generateMetadata = (): Promise<Metadata> => portalTitle('Endpoints');

export default async function PortalEndpointsPage() {
  const session = await portalSessionOfRequest();
  return session ? <EndpointsList appId={session.appId} /> : null;
}
