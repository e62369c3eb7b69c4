import type { Metadata } from 'next';
import { Suspense } from 'react';
import { MessagesList } from '@/components/messages/messages-list';
import { Loading } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Messages' };

export default function MessagesPage() {
  return (
    <Suspense fallback={<Loading />}>
      <MessagesList />
    </Suspense>
  );
}
