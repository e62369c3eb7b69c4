// The JSON filter worker/sql/job-replay-batch.sql applies, built from a job's params with the same
// functions the dry-run count uses (lib/domain/deliveries/delivery-where.ts via lib/domain/jobs/count-job.ts):
// state names are expanded here, once, by expandStateFilter, and a payload search becomes `payload`,
// what the batch's payload conditions read (the same conditions as lib/domain/search/payload-condition.ts).
import { expandStateFilter, type DeliveryStateFilter } from '../../lib/domain/deliveries/delivery-states';
import { jsonValueOf } from '../../lib/domain/search/payload-condition';

const PAYLOAD_KEYS = ['search', 'payloadPath', 'payloadValue', 'payloadMatch'];

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
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined && value !== null && !PAYLOAD_KEYS.includes(key)) match[key] = value;
  }
  if (state) match.states = [...expandStateFilter(state)];
  const payload = payloadMatch(rest);
  if (payload) {
    // With a search, from and to bound the message's time, as the list's search does
    // (lib/domain/deliveries/search-deliveries.ts): a backfill's delivery is found with its message.
    for (const key of ['from', 'to'] as const) {
      if (match[key] !== undefined) payload[key] = match[key];
      delete match[key];
    }
    match.payload = payload;
  }
  return match;
}

/** A payload search as the batch reads it: the substring, the path as keys, and the value either as the
 * JSON it must equal (`equals`) or as the substring it must contain (`contains`). */
function payloadMatch(filter: Record<string, unknown>): Record<string, unknown> | null {
  const search = typeof filter.search === 'string' ? filter.search : undefined;
  const path = typeof filter.payloadPath === 'string' ? filter.payloadPath.split('.') : undefined;
  const value = typeof filter.payloadValue === 'string' ? filter.payloadValue : undefined;
  if (search === undefined && (path === undefined || value === undefined)) return null;
  const payload: Record<string, unknown> = {};
  if (search !== undefined) payload.search = search;
  if (path !== undefined && value !== undefined) {
    payload.path = path;
    if (filter.payloadMatch === 'contains') payload.contains = value;
    else payload.equals = jsonValueOf(value);
  }
  return payload;
}
