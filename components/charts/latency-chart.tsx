'use client';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartPoint } from '@/lib/contract/schemas/stats';
import { formatDurationTick, formatLatency } from '../format';
import { ChartFrame } from './chart-frame';
import { AXIS_STYLE, formatTick, formatTooltipTime } from './chart-time';

const LINES = [
  { key: 'p50', color: '#2563eb' },
  { key: 'p95', color: '#d97706' },
  { key: 'p99', color: '#dc2626' },
] as const;

// Decades from 1 ms to 100 s: the latency histogram's bounds span 5 ms .. 30 s.
const DECADES = [1, 10, 100, 1_000, 10_000, 100_000];

/** p50, p95 and p99 on a log scale: with timeouts a p99 of 13.8 s and a p50 of 128 ms differ 100-fold,
 * and on a linear axis the p50 and p95 lay flat on zero. Each decade gets a tick in ms or s. */
export function LatencyChart({ series, bucketSeconds }: { series: ChartPoint[]; bucketSeconds: number }) {
  // A line through one or two measured buckets is invisible; dots show them until there are more.
  const measured = series.filter((point) => point.p50 != null);
  const dot = measured.length < 3 ? { r: 3 } : false;
  const values = measured
    .flatMap((point) => [point.p50, point.p95, point.p99])
    .filter((v): v is number => v != null && v > 0);
  const low = values.length ? 10 ** Math.floor(Math.log10(Math.min(...values))) : 1;
  const high = values.length ? 10 ** Math.ceil(Math.log10(Math.max(...values) * 1.0001)) : 1000;
  const ticks = DECADES.filter((decade) => decade >= low && decade <= high);
  return (
    <ChartFrame testId="latency-chart" emptyText={measured.length === 0 ? 'No latency measured in this range' : null}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#f4f4f5" vertical={false} />
          <XAxis
            dataKey="time"
            tick={AXIS_STYLE}
            tickFormatter={(t: string) => formatTick(t, bucketSeconds)}
            minTickGap={40}
          />
          <YAxis
            tick={AXIS_STYLE}
            scale="log"
            domain={[low, high]}
            ticks={ticks}
            allowDataOverflow
            width={56}
            tickFormatter={(value: number) => formatDurationTick(value)}
          />
          <Tooltip labelFormatter={formatTooltipTime} formatter={(value) => formatLatency(Number(value))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {LINES.map((line) => (
            <Line
              key={line.key}
              type="monotone"
              dataKey={line.key}
              name={line.key}
              stroke={line.color}
              dot={dot}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
