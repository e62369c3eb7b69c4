import type { Metadata } from 'next';
import { DeliveryDetail } from '@/components/deliveries/delivery-detail';
import { findDelivery } from '@/lib/domain/deliveries/find-delivery';
import { requirePortalResource } from '@/lib/http/portal/require-portal-resource';
import { portalSessionOfRequest } from '../../portal-session-of-request';
import { portalTitle } from '../../portal-title';

export const generateMetadata = (): Promise<Metadata> => portalTitle('Delivery');

export default async function PortalDeliveryPage({ params }: { params: Promise<{ deliveryId: string }> }) {
  const { deliveryId } = await params;
  await requirePortalResource(deliveryId, findDelivery);
  const session = await portalSessionOfRequest();
  return session ? <DeliveryDetail appId={session.appId} deliveryId={deliveryId} /> : null;
}
