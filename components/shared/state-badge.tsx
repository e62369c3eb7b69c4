import { DELIVERY_STATE_INFO, type DeliveryState } from '@/lib/domain/deliveries/delivery-states';
import type { CircuitState } from '@/lib/contract/schemas/endpoints';
import { Badge, type Tone } from '../ui/badge';

export const DELIVERY_TONES: Record<DeliveryState, Tone> = {
  waiting: 'neutral',
  retrying: 'retry',
  delivering: 'flight',
  succeeded: 'ok',
  dead: 'fail',
  cancelled: 'neutral',
};

/** A delivery's state by its one name (lib/domain/deliveries/delivery-states.ts); the title says what it means. */
export function DeliveryStateBadge({ state }: { state: DeliveryState }) {
  return (
    <Badge tone={DELIVERY_TONES[state]} title={DELIVERY_STATE_INFO[state].description}>
      {state}
    </Badge>
  );
}

const CIRCUIT_TONES: Record<CircuitState, Tone> = { closed: 'ok', open: 'fail', half_open: 'retry' };

export function CircuitBadge({ state }: { state: CircuitState }) {
  return (
    <Badge tone={CIRCUIT_TONES[state]} title="Circuit breaker">
      circuit {state.replace('_', '-')}
    </Badge>
  );
}

export function StatusCode({ code }: { code: number | null }) {
  if (code == null) return <span className="text-zinc-400">—</span>;
  const tone = code >= 200 && code < 300 ? 'text-green-700' : code >= 500 ? 'text-red-700' : 'text-amber-700';
  return <span className={`tabular font-mono text-xs ${tone}`}>{code}</span>;
}

export function ErrorClass({ value }: { value: string | null }) {
  if (!value) return <span className="text-zinc-400">—</span>;
  return <span className="font-mono text-xs text-red-700">{value}</span>;
}
