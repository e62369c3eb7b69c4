import { route } from '@/lib/http/route';
import { scopedAppId } from '@/lib/http/scoped-app-id';
import { getIssue } from '@/lib/domain/operational-events/get-issue';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getIssue, ({ principal, params }) =>
  getIssue({ ...params, appId: scopedAppId(principal, undefined) }),
);
