// The customer portal's apps/[appId]/endpoints/[endpointId]/test: the REST API's own handler, reached with a portal session
// (lib/http/portal/portal-operations.ts decides what a session may call).
export { POST } from '@/app/api/v1/apps/[appId]/endpoints/[endpointId]/test/route';

export const runtime = 'nodejs';
