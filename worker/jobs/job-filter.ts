// The JSON filter worker/sql/job-replay-batch.sql applies, built from a job's params with the same
// functions the dry-run count uses (lib/domain/deliveries/delivery-where.ts via lib/domain/jobs/count-job.ts):
// state names are expanded here, once, by expandStateFilter.
import { expandStateFilter, type DeliveryStateFilter } from '../../lib/domain/deliveries/delivery-states';

export interface StoredReplayParams {
  filter?: Record<string, unknown> & { state?: DeliveryStateFilter };
  endpointId?: string;
  since?: string;
}

/** Replay jobs store the filter as given (state defaulted to `failed`); recover jobs store
 * {endpointId, since}, which is the filter {endpointId, from: since, state: 'failed'}. */
export function replayMatch(kind: 'replay' | 'recover', params: StoredReplayParams): Record<string, unknown> {
  const filter =
    kind === 'recover'
      ? { endpointId: params.endpointId, from: params.since, state: 'failed' as const }
      : (params.filter ?? {});
  const { state, ...rest } = filter;
  const match: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) if (value !== undefined && value !== null) match[key] = value;
  if (state) match.states = [...expandStateFilter(state)];
  return match;
}
