import type { Metadata } from 'next';
import { Suspense } from 'react';
import { OverviewDashboard } from '@/components/overview/overview-dashboard';
import { Loading } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Overview' };

export default function OverviewPage() {
  return (
    <Suspense fallback={<Loading />}>
      <OverviewDashboard />
    </Suspense>
  );
}
