import { route } from '@/lib/api/route';
import { scopedAppId } from '@/lib/api/scoped-app-id';
import { getIssue } from '@/lib/operations/get-issue';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getIssue, ({ principal, params }) =>
  getIssue({ ...params, appId: scopedAppId(principal, undefined) }),
);
