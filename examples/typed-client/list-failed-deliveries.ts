// A typed client of the Hookline REST API: openapi-fetch over the types openapi-typescript generated
// from /api/v1/openapi.json (hookline-api.d.ts). Paths, parameters and responses are checked by the
// compiler: a misspelled state or field does not build. test/api/typed-client.test.ts runs this file
// against the API.
import createClient from 'openapi-fetch';
import type { components, paths } from './hookline-api';

export type Delivery = components['schemas']['Delivery'];

/** Every failed delivery (retrying or dead) of an app, following the cursor page by page. */
export async function listFailedDeliveries({
  baseUrl,
  apiKey,
  appId,
  fetch,
}: {
  /** e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  apiKey: string;
  appId: string;
  fetch?: (request: Request) => Promise<Response>;
}): Promise<Delivery[]> {
  const client = createClient<paths>({
    baseUrl: `${baseUrl}/api/v1`,
    headers: { Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
  const failed: Delivery[] = [];
  let cursor: string | undefined;
  do {
    const { data, error } = await client.GET('/apps/{appId}/deliveries', {
      params: { path: { appId }, query: { state: 'failed', limit: 100, cursor } },
    });
    if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
    failed.push(...data.data);
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return failed;
}
