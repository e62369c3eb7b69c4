import type { Endpoint } from '@/lib/contract/schemas/endpoints';
import { formatPercent, formatRelative } from '../format';
import { CircuitBadge, ErrorClass } from '../shared/state-badge';
import { Badge } from '../ui/badge';

export function EndpointStatusBadges({ endpoint }: { endpoint: Endpoint }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {endpoint.enabled ? (
        <Badge tone="ok">enabled</Badge>
      ) : (
        <Badge tone="fail" title={endpoint.disabledReason ?? undefined}>
          disabled
        </Badge>
      )}
      {endpoint.health ? <CircuitBadge state={endpoint.health.circuitState} /> : null}
      {endpoint.implicit ? (
        <Badge title={`Created by hookline.http_${endpoint.method.toLowerCase()}`}>implicit</Badge>
      ) : null}
      {endpoint.method !== 'POST' ? <Badge title="Sent with this HTTP method">{endpoint.method}</Badge> : null}
    </span>
  );
}

export function SuccessRate({ endpoint }: { endpoint: Endpoint }) {
  const rate = endpoint.health?.successRate24h ?? null;
  const tone =
    rate == null ? 'text-zinc-400' : rate >= 0.99 ? 'text-green-700' : rate >= 0.9 ? 'text-amber-700' : 'text-red-700';
  return <span className={`tabular font-medium ${tone}`}>{formatPercent(rate)}</span>;
}

export function LastError({ endpoint }: { endpoint: Endpoint }) {
  const health = endpoint.health;
  if (!health?.lastFailureAt) return <span className="text-xs text-zinc-400">none</span>;
  return (
    <span className="text-xs">
      <ErrorClass value={health.lastErrorClass} />{' '}
      <span className="text-zinc-500">{formatRelative(health.lastFailureAt)}</span>
    </span>
  );
}
