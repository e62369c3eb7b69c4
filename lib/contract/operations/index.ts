// Every REST operation of /api/v1, one file per resource. Route files take their operation from here,
// so a route cannot validate differently from what the OpenAPI document says; test/api/openapi.test.ts
// checks that every route file is in here and everything in here has a route file.
// The order of the spreads is the order of the document's paths (and of the generated client in
// examples/typed-client): append a new resource rather than sorting.
import { alertRuleOperations } from './alert-rules';
import { apiKeyOperations } from './api-keys';
import { auditEventOperations } from './audit-events';
import { appOperations } from './apps';
import { deliveryOperations } from './deliveries';
import { endpointOperations } from './endpoints';
import { eventTypeOperations } from './event-types';
import { issueOperations } from './issues';
import { jobOperations } from './jobs';
import { memberOperations } from './members';
import { messageOperations } from './messages';
import { openApiDocumentOperations } from './openapi-document';
import { operationalEventOperations } from './operational-events';
import { portalSessionOperations } from './portal-sessions';
import { statsOperations } from './stats';

export const operations = {
  ...appOperations,
  ...eventTypeOperations,
  ...endpointOperations,
  ...messageOperations,
  ...deliveryOperations,
  ...jobOperations,
  ...portalSessionOperations,
  ...statsOperations,
  ...apiKeyOperations,
  ...operationalEventOperations,
  ...issueOperations,
  ...alertRuleOperations,
  ...openApiDocumentOperations,
  ...memberOperations,
  ...auditEventOperations,
};
