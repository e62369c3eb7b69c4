// The customer portal's apps/[appId]/deliveries: the REST API's own handler, reached with a portal session
// (lib/http/portal/portal-operations.ts decides what a session may call).
export { GET } from '@/app/api/v1/apps/[appId]/deliveries/route';

export const runtime = 'nodejs';
