import { getPrisma } from '../../database/db';
import { encryptSecret } from '../../runtime/secret-box';
import { recordAuditEvent } from '../audit/record-audit-event';
import { endpointAuditFields } from '../endpoints/endpoint-audit-fields';
import { invalid } from '../errors';
import { checkEndpointHeaders, checkEndpointUrl } from '../endpoints/check-endpoint-target';
import { generateSecret } from '../webhooks/sign';
import { checkPayloadTemplate } from './check-payload-template';
import { operationalEndpointViews } from './operational-endpoint-view';
import { OPERATIONS_APP_ID } from './operations-app';

export interface CreateOperationalEndpointInput {
  url: string;
  description?: string;
  eventTypes?: string[];
  scopeAppId?: string | null;
  payloadTemplate?: string | null;
  headers?: Record<string, string>;
}

export async function checkScopeApp(scopeAppId: string | null | undefined): Promise<void> {
  if (scopeAppId === null || scopeAppId === undefined) return;
  if (scopeAppId === OPERATIONS_APP_ID) throw invalid('scopeAppId', 'cannot be the operations app itself');
  const app = await getPrisma().app.findUnique({ where: { id: scopeAppId }, select: { id: true } });
  if (!app) throw invalid('scopeAppId', `app ${JSON.stringify(scopeAppId)} does not exist`);
}

/**
 * Creates an operational endpoint: an endpoint of the operations app, its signing secret and its scope
 * and template, in one transaction. A scope must never be missing: without its row an endpoint is
 * deployment-wide and would receive other apps' events.
 */
export async function createOperationalEndpoint(input: CreateOperationalEndpointInput) {
  const url = checkEndpointUrl(input.url);
  const headers = checkEndpointHeaders(input.headers ?? {});
  await checkScopeApp(input.scopeAppId);
  await checkPayloadTemplate(input.payloadTemplate);
  const secret = generateSecret();
  const endpoint = await getPrisma().$transaction(async (tx) => {
    const created = await tx.endpoint.create({
      data: {
        appId: OPERATIONS_APP_ID,
        url,
        description: input.description ?? '',
        eventTypes: input.eventTypes ?? [],
        headers,
      },
    });
    await tx.endpointSecret.create({
      data: { appId: OPERATIONS_APP_ID, endpointId: created.id, secret: encryptSecret(secret) },
    });
    await tx.operationalEndpoint.create({
      data: {
        endpointId: created.id,
        scopeAppId: input.scopeAppId ?? null,
        payloadTemplate: input.payloadTemplate ?? null,
      },
    });
    await recordAuditEvent(tx, {
      action: 'operational_endpoint.created',
      resourceType: 'operational_endpoint',
      resourceId: created.id,
      appId: null,
      after: {
        ...endpointAuditFields(created),
        scopeAppId: input.scopeAppId ?? null,
        payloadTemplate: input.payloadTemplate ?? null,
      },
    });
    return created;
  });
  const [view] = await operationalEndpointViews([endpoint]);
  return { ...view!, secret };
}
