'use client';
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { StatsPoint } from '@/lib/queries/types';
import { ChartFrame } from './chart-frame';
import { AXIS_STYLE, formatTick, formatTooltipTime } from './chart-time';

const STATES = [
  { key: 'delivering', name: 'Delivering', color: '#2563eb' },
  { key: 'pending', name: 'Pending', color: '#71717a' },
  { key: 'scheduled', name: 'Retry scheduled', color: '#d97706' },
  { key: 'dead', name: 'Dead', color: '#dc2626' },
] as const;

export function QueueDepthChart({ series, bucketSeconds }: { series: StatsPoint[]; bucketSeconds: number }) {
  const sampled = series.some((point) => STATES.some((state) => point[state.key] != null));
  return (
    <ChartFrame testId="queue-depth-chart" emptyText={sampled ? null : 'No queue samples in this range yet'}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
          <CartesianGrid stroke="#f4f4f5" vertical={false} />
          <XAxis dataKey="time" tick={AXIS_STYLE} tickFormatter={(t: string) => formatTick(t, bucketSeconds)} minTickGap={40} />
          <YAxis tick={AXIS_STYLE} allowDecimals={false} />
          <Tooltip labelFormatter={formatTooltipTime} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {STATES.map((state) => (
            <Area
              key={state.key}
              type="stepAfter"
              dataKey={state.key}
              name={state.name}
              stackId="queue"
              stroke={state.color}
              fill={state.color}
              fillOpacity={0.2}
              isAnimationActive={false}
            />
          ))}
        </AreaChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
