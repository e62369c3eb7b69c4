// Replays an app's failed deliveries as a background job and waits for it, with the typed client
// (see list-failed-deliveries.ts). test/api/typed-client.test.ts runs it against the API.
import createClient from 'openapi-fetch';
import type { components, paths } from './hookline-api';

export type Job = components['schemas']['Job'];

/** Starts a replay job for every failed delivery (retrying or dead) and polls it until it ends. */
export async function replayFailedAsJob({
  baseUrl,
  apiKey,
  appId,
  pollMs = 1000,
  fetch,
}: {
  baseUrl: string;
  apiKey: string;
  appId: string;
  pollMs?: number;
  fetch?: (request: Request) => Promise<Response>;
}): Promise<Job> {
  const client = createClient<paths>({
    baseUrl: `${baseUrl}/api/v1`,
    headers: { Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
  const started = await client.POST('/apps/{appId}/jobs', {
    params: { path: { appId } },
    body: { kind: 'replay', filter: { state: 'failed' } },
  });
  if (started.error) throw new Error(`${started.error.error.code}: ${started.error.error.message}`);
  let job = started.data;
  while (job.state === 'queued' || job.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const { data, error } = await client.GET('/apps/{appId}/jobs/{jobId}', {
      params: { path: { appId, jobId: job.id } },
    });
    if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
    job = data;
  }
  return job;
}
