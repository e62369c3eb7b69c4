import type { Metadata } from 'next';
import { JobsList } from '@/components/jobs/jobs-list';

export const metadata: Metadata = { title: 'Jobs' };

export default async function AppJobsPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  return <JobsList appId={appId} />;
}
