import type { Metadata } from 'next';
import { ApiKeysList } from '@/components/api-keys/api-keys-list';
import { Forbidden } from '@/components/auth/forbidden';
import { pageAccess } from '@/lib/http/auth/page-permission';

export const metadata: Metadata = { title: 'API keys' };

export default async function ApiKeysPage() {
  const access = await pageAccess('/api-keys');
  if (!access.allowed) return <Forbidden title="API keys" role={access.session.role} refusal={access.refusal} />;
  return <ApiKeysList />;
}
