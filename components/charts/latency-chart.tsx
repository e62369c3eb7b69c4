'use client';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { StatsPoint } from '@/lib/queries/types';
import { ChartFrame } from './chart-frame';
import { AXIS_STYLE, formatTick, formatTooltipTime } from './chart-time';

const LINES = [
  { key: 'p50', color: '#2563eb' },
  { key: 'p95', color: '#d97706' },
  { key: 'p99', color: '#dc2626' },
] as const;

export function LatencyChart({ series, bucketSeconds }: { series: StatsPoint[]; bucketSeconds: number }) {
  // A line through one or two measured buckets is invisible; dots show them until there are more.
  const measured = series.filter((point) => point.p50 != null).length;
  const dot = measured < 3 ? { r: 3 } : false;
  return (
    <ChartFrame testId="latency-chart" emptyText={measured === 0 ? 'No latency measured in this range' : null}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
          <CartesianGrid stroke="#f4f4f5" vertical={false} />
          <XAxis dataKey="time" tick={AXIS_STYLE} tickFormatter={(t: string) => formatTick(t, bucketSeconds)} minTickGap={40} />
          <YAxis tick={AXIS_STYLE} unit=" ms" width={64} />
          <Tooltip labelFormatter={formatTooltipTime} formatter={(value) => `${String(value)} ms`} />
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
