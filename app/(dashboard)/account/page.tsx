import type { Metadata } from 'next';
import { AccountPage } from '@/components/members/account-page';

export const metadata: Metadata = { title: 'Account' };

export default function Account() {
  return <AccountPage />;
}
