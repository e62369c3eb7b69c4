import type { Metadata } from 'next';
import { Suspense } from 'react';
import { IssuesList } from '@/components/issues/issues-list';

export const metadata: Metadata = { title: 'Issues' };

export default function IssuesPage() {
  return (
    <Suspense>
      <IssuesList />
    </Suspense>
  );
}
