import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { findEndpoint } from '../endpoints/find-endpoint';
import { updateEndpoint } from '../endpoints/update-endpoint';
import { checkPayloadTemplate } from './check-payload-template';
import { checkScopeApp } from './create-operational-endpoint';
import { getOperationalEndpoint } from './get-operational-endpoint';
import { OPERATIONS_APP_ID } from './operations-app';

export interface OperationalEndpointChanges {
  url?: string;
  description?: string;
  eventTypes?: string[];
  scopeAppId?: string | null;
  payloadTemplate?: string | null;
}

export async function updateOperationalEndpoint({
  endpointId,
  changes,
}: {
  endpointId: string;
  changes: OperationalEndpointChanges;
}) {
  await findEndpoint(OPERATIONS_APP_ID, endpointId);
  await checkScopeApp(changes.scopeAppId);
  await checkPayloadTemplate(changes.payloadTemplate);
  const { scopeAppId, payloadTemplate, ...endpointChanges } = changes;
  if (Object.keys(endpointChanges).length > 0) {
    await updateEndpoint({ appId: OPERATIONS_APP_ID, endpointId, changes: endpointChanges });
  }
  if (scopeAppId !== undefined || payloadTemplate !== undefined) {
    await getPrisma().$transaction(async (tx) => {
      const before = await tx.operationalEndpoint.findUnique({ where: { endpointId } });
      const after = await tx.operationalEndpoint.upsert({
        where: { endpointId },
        create: { endpointId, scopeAppId: scopeAppId ?? null, payloadTemplate: payloadTemplate ?? null },
        update: { scopeAppId, payloadTemplate, updatedAt: new Date() },
      });
      const fields = (row: typeof after | null) => ({
        scopeAppId: row?.scopeAppId ?? null,
        payloadTemplate: row?.payloadTemplate ?? null,
      });
      await recordAuditEvent(tx, {
        action: 'operational_endpoint.updated',
        resourceType: 'operational_endpoint',
        resourceId: endpointId,
        appId: null,
        before: fields(before),
        after: fields(after),
      });
    });
  }
  return getOperationalEndpoint({ endpointId });
}
