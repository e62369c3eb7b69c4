import type { Metadata } from 'next';
import { EventTypesReference } from '@/components/event-types/event-types-reference';
import { portalSessionOfRequest } from '../portal-session-of-request';

export const metadata: Metadata = { title: 'Event types' };

export default async function PortalEventTypesPage() {
  const session = await portalSessionOfRequest();
  return session ? <EventTypesReference appId={session.appId} /> : null;
}
