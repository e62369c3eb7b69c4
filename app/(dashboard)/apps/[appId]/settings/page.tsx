import type { Metadata } from 'next';
import { AppSettings } from '@/components/apps/app-settings';
import { PortalSettings } from '@/components/apps/portal-settings';

export const metadata: Metadata = { title: 'App settings' };

export default async function AppSettingsPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  return (
    <div className="space-y-4">
      <AppSettings appId={appId} />
      <PortalSettings appId={appId} />
    </div>
  );
}
