// The customer portal's apps/[appId]/endpoints/[endpointId]/stats: the REST API's own handler, reached with a portal session
// (lib/http/portal/portal-operations.ts decides what a session may call).
export { GET } from '@/app/api/v1/apps/[appId]/endpoints/[endpointId]/stats/route';

export const runtime = 'nodejs';
