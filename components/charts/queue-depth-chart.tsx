'use client';
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { StatsPoint } from '@/lib/queries/types';
import { AXIS_STYLE, CHART_HEIGHT, formatTick, formatTooltipTime } from './chart-time';

const STATES = [
  { key: 'delivering', name: 'Delivering', color: '#2563eb' },
  { key: 'pending', name: 'Pending', color: '#71717a' },
  { key: 'scheduled', name: 'Retry scheduled', color: '#d97706' },
  { key: 'dead', name: 'Dead', color: '#dc2626' },
] as const;

export function QueueDepthChart({ series, bucketSeconds }: { series: StatsPoint[]; bucketSeconds: number }) {
  return (
    <div data-testid="queue-depth-chart" style={{ height: CHART_HEIGHT }}>
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
    </div>
  );
}
