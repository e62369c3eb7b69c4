import type { Metadata } from 'next';
import { AppSettings } from '@/components/apps/app-settings';

export const metadata: Metadata = { title: 'App settings' };

export default async function AppSettingsPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  return <AppSettings appId={appId} />;
}
