import type { CircuitState, DeliveryState } from '@/lib/queries/types';
import { Badge, type Tone } from '../ui/badge';

const DELIVERY_TONES: Record<DeliveryState, Tone> = {
  pending: 'retry',
  delivering: 'flight',
  succeeded: 'ok',
  dead: 'fail',
  cancelled: 'neutral',
};

export function DeliveryStateBadge({ state, attemptCount }: { state: DeliveryState; attemptCount?: number }) {
  // A pending delivery that has already been tried is waiting for a retry, which an operator reads differently.
  const label = state === 'pending' && attemptCount ? 'retrying' : state;
  return <Badge tone={state === 'pending' && !attemptCount ? 'neutral' : DELIVERY_TONES[state]}>{label}</Badge>;
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
