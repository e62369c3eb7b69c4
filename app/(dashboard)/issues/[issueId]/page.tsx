import type { Metadata } from 'next';
import Link from 'next/link';
import { IssueDetail } from '@/components/issues/issue-detail';

export const metadata: Metadata = { title: 'Issue' };

export default async function IssuePage({ params }: { params: Promise<{ issueId: string }> }) {
  const { issueId } = await params;
  return (
    <div>
      <nav className="mb-2 text-xs text-zinc-500">
        <Link href="/issues" className="hover:underline">
          Issues
        </Link>{' '}
        / <span className="font-mono">{issueId}</span>
      </nav>
      <IssueDetail issueId={issueId} />
    </div>
  );
}
