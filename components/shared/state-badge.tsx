import { DELIVERY_STATE_INFO, type DeliveryState } from '@/lib/domain/deliveries/delivery-states';
import type { CircuitState } from '@/lib/contract/schemas/endpoints';
import { ERROR_CLASS_INFO, type ErrorClassName } from '@/lib/domain/deliveries/error-classes';
import { errorClassColor, statusCodeColor } from '../charts/outcome-colors';
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

/** A status code in its fixed colour (components/charts/outcome-colors.ts), as the charts draw it. */
export function StatusCode({ code }: { code: number | null }) {
  if (code == null) return <span className="text-zinc-400">—</span>;
  return (
    <span className="tabular inline-flex items-center gap-1 font-mono text-xs" data-status-code={code}>
      <Swatch color={statusCodeColor(code)} />
      {code}
    </span>
  );
}

/** An error class in its fixed colour, with what it means as the title. */
export function ErrorClass({ value }: { value: string | null }) {
  if (!value) return <span className="text-zinc-400">—</span>;
  return (
    <span
      className="inline-flex items-center gap-1 font-mono text-xs text-zinc-800"
      title={ERROR_CLASS_INFO[value as ErrorClassName]}
      data-error-class={value}
    >
      <Swatch color={errorClassColor(value)} />
      {value}
    </span>
  );
}

function Swatch({ color }: { color: string }) {
  return (
    <span
      aria-hidden
      data-testid="outcome-swatch"
      className="inline-block h-2 w-2 shrink-0 rounded-sm"
      style={{ backgroundColor: color }}
    />
  );
}
