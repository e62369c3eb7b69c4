'use client';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { DELIVERY_STATE_INFO } from '@/lib/domain/deliveries/delivery-states';
import type { StatsPoint } from '@/lib/contract/schemas/stats';
import { formatCount } from '../format';
import { ChartFrame } from './chart-frame';
import { AXIS_STYLE, formatTick, formatTooltipTime } from './chart-time';

// The cards' states, in their order and colours. Lines, not stacked areas: a stack draws each state
// on top of the ones below, so a zero "Dead" ran along the top edge of 1,300 retries and read as 1,300
// dead. Each line is its own state's count.
export const QUEUE_SERIES = [
  { key: 'waiting', color: '#71717a' },
  { key: 'retrying', color: '#d97706' },
  { key: 'delivering', color: '#2563eb' },
  { key: 'dead', color: '#dc2626' },
] as const;

export function QueueDepthChart({ series, bucketSeconds }: { series: StatsPoint[]; bucketSeconds: number }) {
  const sampled = series.filter((point) => QUEUE_SERIES.some((state) => point[state.key] != null));
  const latest = sampled.at(-1);
  const dot = sampled.length < 3 ? { r: 3 } : false;
  return (
    <ChartFrame testId="queue-depth-chart" emptyText={sampled.length ? null : 'No queue samples in this range yet'}>
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
            allowDecimals={false}
            width={56}
            tickFormatter={(value: number) => formatCount(value)}
          />
          <Tooltip labelFormatter={formatTooltipTime} formatter={(value) => formatCount(Number(value))} />
          {/* In the cards' order; Recharts would sort the entries by name. */}
          <Legend
            wrapperStyle={{ fontSize: 12 }}
            itemSorter={(item) => QUEUE_SERIES.findIndex((state) => state.key === item.dataKey)}
          />
          {QUEUE_SERIES.map((state) => (
            <Line
              key={state.key}
              type="stepAfter"
              dataKey={state.key}
              // The legend carries the latest value, the same number as the card above.
              name={`${DELIVERY_STATE_INFO[state.key].label} ${formatCount(latest?.[state.key] ?? 0)}`}
              stroke={state.color}
              strokeWidth={state.key === 'dead' ? 2 : 1.5}
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
