import type { Metadata } from 'next';
import Link from 'next/link';
import { MessageDetail } from '@/components/messages/message-detail';

export const metadata: Metadata = { title: 'Message' };

export default async function MessagePage({ params }: { params: Promise<{ appId: string; messageId: string }> }) {
  const { appId, messageId } = await params;
  return (
    <div>
      <nav className="mb-2 text-xs text-zinc-500">
        <Link href={`/messages?appId=${encodeURIComponent(appId)}`} className="hover:underline">
          Messages
        </Link>{' '}
        / <span className="font-mono">{messageId}</span>
      </nav>
      <MessageDetail appId={appId} messageId={messageId} />
    </div>
  );
}
