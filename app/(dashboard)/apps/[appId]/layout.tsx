import type { ReactNode } from 'react';
import { AppTabs } from '@/components/apps/app-tabs';

export default async function AppLayout({ children, params }: { children: ReactNode; params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  return (
    <div>
      <AppTabs appId={appId} />
      {children}
    </div>
  );
}
