import { route } from '@/lib/http/route';
import { scopedAppId } from '@/lib/http/scoped-app-id';
import { listAuditEvents } from '@/lib/domain/audit/list-audit-events';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listAuditEvents, ({ principal, query }) =>
  listAuditEvents({ ...query, appId: scopedAppId(principal, query.appId) }),
);
