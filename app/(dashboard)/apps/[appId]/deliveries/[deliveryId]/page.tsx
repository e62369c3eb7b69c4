import type { Metadata } from 'next';
import Link from 'next/link';
import { DeliveryDetail } from '@/components/deliveries/delivery-detail';

export const metadata: Metadata = { title: 'Delivery' };

export default async function DeliveryPage({ params }: { params: Promise<{ appId: string; deliveryId: string }> }) {
  const { appId, deliveryId } = await params;
  return (
    <div>
      <nav className="mb-2 text-xs text-zinc-500">
        <Link href={`/deliveries?appId=${encodeURIComponent(appId)}`} className="hover:underline">
          Deliveries
        </Link>{' '}
        / <span className="font-mono">{deliveryId}</span>
      </nav>
      <DeliveryDetail appId={appId} deliveryId={deliveryId} />
    </div>
  );
}
