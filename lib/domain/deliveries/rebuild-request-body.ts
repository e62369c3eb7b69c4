/**
 * The bytes a delivery's attempts POST, rebuilt from the message the way the worker builds them
 * (worker/deliver.ts buildBody): a Standard Webhooks envelope around the payload as PostgreSQL prints
 * jsonb, or the payload alone for an implicit (hookline.http_post) endpoint. The signatures cover
 * exactly these bytes, so "copy as curl" must use them rather than a re-serialised payload.
 * test/api/delivery-request.test.ts checks them against a real attempt's signature, so a change to
 * the worker's envelope cannot go unnoticed here.
 */
export function rebuildRequestBody({
  eventType,
  createdAt,
  payloadText,
  implicit,
  method = 'POST',
}: {
  eventType: string;
  createdAt: Date;
  /** hookline.messages.payload::text */
  payloadText: string;
  implicit: boolean;
  /** endpoints.method: a GET has no body, nor a DELETE whose payload is JSON null (empty string). */
  method?: string;
}): string {
  if (method === 'GET' || (method === 'DELETE' && payloadText === 'null')) return '';
  if (implicit) return payloadText;
  return `{"type":${JSON.stringify(eventType)},"timestamp":"${createdAt.toISOString()}","data":${payloadText}}`;
}
