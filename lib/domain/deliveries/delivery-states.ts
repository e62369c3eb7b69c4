// The one vocabulary of delivery states: badges, filters, dialogs, the REST API and the README all use
// these names. The database keeps its own five (pending, delivering, succeeded, dead, cancelled: the
// worker's hot path depends on them); its `pending` splits in two here because an operator reads a
// delivery that has never been tried differently from one that has failed and waits for a retry.
// The split is on attempt_count alone, not on next_attempt_at, so a delivery's state never changes
// while nobody touches it. Only type imports: badges in the browser import this module too.
import type { Prisma } from '../../generated/prisma/client';

export const DELIVERY_STATES = ['waiting', 'retrying', 'delivering', 'succeeded', 'dead', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const STORED_DELIVERY_STATES = ['pending', 'delivering', 'succeeded', 'dead', 'cancelled'] as const;
export type StoredDeliveryState = (typeof STORED_DELIVERY_STATES)[number];

/** The set "failed" names everywhere it acts: replay-by-filter without a state, and an endpoint's
 * recover. Failed at least once and not delivered: a retry is pending, or the schedule ran out. */
export const FAILED_STATES = ['retrying', 'dead'] as const satisfies readonly DeliveryState[];

/** Names a filter accepts besides the states: `failed` (retrying or dead) and, from before the states
 * were split, `pending` (waiting or retrying). */
export const DELIVERY_STATE_GROUPS = {
  failed: FAILED_STATES,
  pending: ['waiting', 'retrying'],
} as const satisfies Record<string, readonly DeliveryState[]>;
export const DELIVERY_STATE_FILTERS = [...DELIVERY_STATES, 'failed', 'pending'] as const;
export type DeliveryStateFilter = (typeof DELIVERY_STATE_FILTERS)[number];

export const DELIVERY_STATE_INFO: Record<DeliveryState, { label: string; description: string }> = {
  waiting: { label: 'Waiting', description: 'Not tried yet: due for a worker, or held by its endpoint' },
  retrying: { label: 'Retrying', description: 'Failed at least once; another attempt will be made' },
  delivering: { label: 'Delivering', description: 'A worker is sending it now' },
  succeeded: { label: 'Succeeded', description: 'The endpoint answered 2xx' },
  dead: { label: 'Dead', description: 'Every attempt of the retry schedule failed' },
  cancelled: { label: 'Cancelled', description: 'Stopped by an operator' },
};

/** The public state of a stored row. */
export function deliveryStateOf(row: { state: string; attemptCount: number }): DeliveryState {
  if (row.state === 'pending') return row.attemptCount > 0 ? 'retrying' : 'waiting';
  return row.state as DeliveryState;
}

/** The states a filter value stands for. */
export function expandStateFilter(filter: DeliveryStateFilter): readonly DeliveryState[] {
  return filter in DELIVERY_STATE_GROUPS
    ? DELIVERY_STATE_GROUPS[filter as keyof typeof DELIVERY_STATE_GROUPS]
    : [filter as DeliveryState];
}

/** The Prisma condition for rows in any of `states`. Waiting and retrying are pending rows split on
 * attempt_count. Pending and dead rows are named with the predicates of the partial indexes that hold
 * them (deliveries_queue_idx: every pending row is in the claim queue; deliveries_dead_idx: a dead
 * row failed, and is out of the queue), which are then read for an app's failed or queued rows instead
 * of all its deliveries (no index leads with app_id alone: migration
 * 20261205090000_deliveries_without_app_time_index). */
export function deliveryStatesWhere(states: readonly DeliveryState[]): Prisma.DeliveryWhereInput {
  const set = new Set(states);
  const plain = [...set].filter((state) => state !== 'waiting' && state !== 'retrying' && state !== 'dead');
  const queued = { state: 'pending', claimableAt: { not: null } } as const;
  const pending: Prisma.DeliveryWhereInput | null =
    set.has('waiting') && set.has('retrying')
      ? queued
      : set.has('waiting')
        ? { ...queued, attemptCount: 0 }
        : set.has('retrying')
          ? { ...queued, attemptCount: { gt: 0 } }
          : null;
  const parts: Prisma.DeliveryWhereInput[] = [];
  if (plain.length) parts.push({ state: { in: plain } });
  if (pending) parts.push(pending);
  if (set.has('dead')) parts.push({ state: 'dead', lastErrorClass: { not: null }, claimableAt: null });
  if (parts.length === 1) return parts[0]!;
  return { OR: parts };
}

/** How "failed" reads in a sentence, from the same list the queries use. */
export function describeStates(states: readonly DeliveryState[]): string {
  const names = states.map((state) => DELIVERY_STATE_INFO[state].label.toLowerCase());
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
