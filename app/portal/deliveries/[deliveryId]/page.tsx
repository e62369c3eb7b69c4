import type { Metadata } from 'next';
import { PortalDeliveryDetail } from '@/components/portal/portal-delivery-detail';

export const metadata: Metadata = { title: 'Delivery' };

export default async function PortalDeliveryPage({ params }: { params: Promise<{ deliveryId: string }> }) {
  const { deliveryId } = await params;
  return <PortalDeliveryDetail deliveryId={deliveryId} />;
}
