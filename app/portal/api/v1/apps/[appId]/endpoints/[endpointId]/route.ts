// The customer portal's apps/[appId]/endpoints/[endpointId]: the REST API's own handler, reached with a portal session
// (lib/http/portal/portal-operations.ts decides what a session may call).
export { GET, PATCH } from '@/app/api/v1/apps/[appId]/endpoints/[endpointId]/route';

export const runtime = 'nodejs';
