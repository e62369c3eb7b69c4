import { OPEN_LATENCY_BUCKET_MS } from '../lib/domain/stats/latency-percentile';

const integer = new Intl.NumberFormat('en-US');

export function formatCount(value: number | null | undefined): string {
  return value == null ? '—' : integer.format(value);
}

/** A count that may be a lower bound: "10,000+" when counting stopped early, else "10,000". */
export function formatCountAtLeast(value: number, lowerBound: boolean | undefined): string {
  return lowerBound ? `${formatCount(value)}+` : formatCount(value);
}

/** A count with its noun: "1 delivery", "2 deliveries". */
export function countOf(value: number, one: string, many: string): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

/** Rates arrive as fractions (0..1). */
export function formatPercent(value: number | null | undefined, digits = 1): string {
  return value == null ? '—' : `${(value * 100).toFixed(digits)}%`;
}

export function formatRate(value: number | null | undefined): string {
  if (value == null) return '—';
  return value >= 100 ? integer.format(Math.round(value)) : value.toFixed(value >= 10 ? 1 : 2);
}

export function formatMs(value: number | null | undefined): string {
  if (value == null) return '—';
  if (value >= 1000) return `${(value / 1000).toFixed(value >= 10_000 ? 1 : 2)} s`;
  return `${Math.round(value)} ms`;
}

/** A latency percentile: one in the histogram's open-ended last bucket is a lower bound, "≥ 30 s"
 * (lib/domain/stats/latency-percentile.ts), never a measured "30.0 s". */
export function formatLatency(value: number | null | undefined): string {
  return value != null && value >= OPEN_LATENCY_BUCKET_MS ? `≥ ${OPEN_LATENCY_BUCKET_MS / 1000} s` : formatMs(value);
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return date.toLocaleString('en-GB', {
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
}

export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  const future = seconds < 0;
  const abs = Math.abs(seconds);
  const text =
    abs < 60
      ? `${abs}s`
      : abs < 3600
        ? `${Math.floor(abs / 60)}m`
        : abs < 86_400
          ? `${Math.floor(abs / 3600)}h`
          : `${Math.floor(abs / 86_400)}d`;
  return future ? `in ${text}` : `${text} ago`;
}

/** Local time, to the second, for an <input type="datetime-local" step="1"> value. */
export function toLocalInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A duration for an axis tick: short, in the unit that reads best ("5 ms", "460 ms", "5 s", "20 s"). */
export function formatDurationTick(value: number): string {
  if (value >= 1000) return `${Number((value / 1000).toPrecision(3))} s`;
  return `${Number(value.toPrecision(3))} ms`;
}
