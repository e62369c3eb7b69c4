import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { listAuditEvents } from '@/lib/domain/audit/list-audit-events';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listAuditEvents, ({ principal, query }) =>
  listAuditEvents({ ...query, ...scopedApps(principal, query.appId) }),
);
