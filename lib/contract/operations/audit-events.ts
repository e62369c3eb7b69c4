import { defineOperation } from '../operation';
import { page } from '../schemas/common';
import { auditEvent, listAuditEventsQuery } from '../schemas/audit-events';
import { readErrors } from './common';

export const auditEventOperations = {
  listAuditEvents: defineOperation({
    operationId: 'listAuditEvents',
    method: 'GET',
    path: '/audit-events',
    tag: 'Audit log',
    summary:
      'The audit log, newest first: every change, who made it and from where (an app-limited key sees its own app)',
    access: 'principal',
    query: listAuditEventsQuery,
    status: 200,
    response: page(auditEvent),
    errors: readErrors,
  }),
};
