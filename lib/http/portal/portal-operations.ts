// What a portal session may do: the REST operations its customer needs, called through the very same
// route handlers (app/portal/api re-exports them), so validation, domain functions and the error
// funnel are the REST API's own. Everything else (app settings, event type changes, messages, keys,
// other apps) does not exist for a portal session: 404, as for an unknown route.
import type { AnyOperation } from '../../contract/operation';
import { DomainError } from '../../domain/errors';
import { HttpError } from '../http-error';

export const PORTAL_OPERATIONS = new Set([
  'listEndpoints',
  'createEndpoint',
  'getEndpoint',
  'getEndpointStats',
  'updateEndpoint',
  'enableEndpoint',
  'disableEndpoint',
  'getEndpointSecrets',
  'rotateEndpointSecret',
  'sendTestMessage',
  'recoverEndpoint',
  'listEventTypes',
  'getEventType',
  'listDeliveries',
  'getDelivery',
  'replayDelivery',
  // Recover and backfill run as background jobs: the portal follows and cancels its own app's.
  'backfillEndpoint',
  'getJob',
  'cancelJob',
]);

// A read-only session watches: it changes nothing, and it does not see the signing secret either
// (whoever holds the secret can forge webhooks the receiver would trust).
const READ_ONLY_REFUSED = new Set(['getEndpointSecrets']);

export function assertPortalMayCall(operation: AnyOperation, readOnly: boolean): void {
  if (!PORTAL_OPERATIONS.has(operation.operationId)) {
    throw new DomainError('not_found', 'The customer portal has no such operation');
  }
  if (readOnly && (operation.method !== 'GET' || READ_ONLY_REFUSED.has(operation.operationId))) {
    throw new HttpError(
      'portal_read_only',
      'This portal session is read-only; ask for a portal link that allows changes',
    );
  }
}
