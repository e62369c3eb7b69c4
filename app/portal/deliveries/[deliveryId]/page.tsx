import type { Metadata } from 'next';
import { PortalDeliveryDetail } from '@/components/portal/portal-delivery-detail';
import { findDelivery } from '@/lib/domain/deliveries/find-delivery';
import { requirePortalResource } from '@/lib/http/portal/require-portal-resource';

export const metadata: Metadata = { title: 'Delivery' };

export default async function PortalDeliveryPage({ params }: { params: Promise<{ deliveryId: string }> }) {
  const { deliveryId } = await params;
  await requirePortalResource(deliveryId, findDelivery);
  return <PortalDeliveryDetail deliveryId={deliveryId} />;
}
