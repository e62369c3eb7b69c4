import type { Metadata } from 'next';
import { ChooseAppForEndpoints } from '@/components/endpoints/choose-app-for-endpoints';

export const metadata: Metadata = { title: 'Endpoints' };

export default function EndpointsPage() {
  return <ChooseAppForEndpoints />;
}
