import type { Metadata } from 'next';
import { PortalEventTypes } from '@/components/portal/portal-event-types';

export const metadata: Metadata = { title: 'Event types' };

export default function PortalEventTypesPage() {
  return <PortalEventTypes />;
}
