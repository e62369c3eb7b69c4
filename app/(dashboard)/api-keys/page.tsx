import type { Metadata } from 'next';
import { ApiKeysList } from '@/components/api-keys/api-keys-list';

export const metadata: Metadata = { title: 'API keys' };

export default function ApiKeysPage() {
  return <ApiKeysList />;
}
