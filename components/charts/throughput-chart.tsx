'use client';
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { StatsPoint } from '@/lib/queries/types';
import { ChartFrame } from './chart-frame';
import { AXIS_STYLE, formatTick, formatTooltipTime } from './chart-time';

/** Attempts per bucket, succeeded and failed stacked, so the total height is the attempt rate. */
export function ThroughputChart({ series, bucketSeconds }: { series: StatsPoint[]; bucketSeconds: number }) {
  const empty = series.every((point) => point.succeeded + point.failed === 0);
  return (
    <ChartFrame testId="throughput-chart" emptyText={empty ? 'No attempts in this range' : null}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
          <CartesianGrid stroke="#f4f4f5" vertical={false} />
          <XAxis dataKey="time" tick={AXIS_STYLE} tickFormatter={(t: string) => formatTick(t, bucketSeconds)} minTickGap={40} />
          <YAxis tick={AXIS_STYLE} allowDecimals={false} />
          <Tooltip labelFormatter={formatTooltipTime} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Area
            type="monotone"
            dataKey="succeeded"
            name="Succeeded"
            stackId="attempts"
            stroke="#16a34a"
            fill="#16a34a"
            fillOpacity={0.25}
            isAnimationActive={false}
          />
          <Area
            type="monotone"
            dataKey="failed"
            name="Failed"
            stackId="attempts"
            stroke="#dc2626"
            fill="#dc2626"
            fillOpacity={0.35}
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
