import type { Metadata } from 'next';
import { EventTypesReference } from '@/components/event-types/event-types-reference';
import { portalSessionOfRequest } from '../portal-session-of-request';
import { portalTitle } from '../portal-title';

export const generateMetadata = (): Promise<Metadata> => portalTitle('Event types');

export default async function PortalEventTypesPage() {
  const session = await portalSessionOfRequest();
  return session ? <EventTypesReference appId={session.appId} /> : null;
}
