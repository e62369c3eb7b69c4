import type { Metadata } from 'next';
import { EventTypesList } from '@/components/event-types/event-types-list';

export const metadata: Metadata = { title: 'Event types' };

export default async function EventTypesPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  return <EventTypesList appId={appId} />;
}
