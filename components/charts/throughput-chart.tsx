'use client';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartPoint } from '@/lib/contract/schemas/stats';
import { ChartFrame } from './chart-frame';
import { AXIS_STYLE, formatTick, formatTooltipTime } from './chart-time';

/** Attempts per bucket, succeeded and failed stacked, so a bar's height is the bucket's attempts.
 * Bars, not areas: a stacked area draws the failed series' edge along the top of the successes even
 * when nothing failed, which reads as failures at a glance. A bucket without failures has no red. */
export function ThroughputChart({ series, bucketSeconds }: { series: ChartPoint[]; bucketSeconds: number }) {
  const empty = series.every((point) => point.succeeded + point.failed === 0);
  return (
    <ChartFrame testId="throughput-chart" emptyText={empty ? 'No attempts in this range' : null}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -12 }} barCategoryGap={1}>
          <CartesianGrid stroke="#f4f4f5" vertical={false} />
          <XAxis
            dataKey="time"
            tick={AXIS_STYLE}
            tickFormatter={(t: string) => formatTick(t, bucketSeconds)}
            minTickGap={40}
          />
          <YAxis tick={AXIS_STYLE} allowDecimals={false} />
          <Tooltip labelFormatter={formatTooltipTime} cursor={{ fill: '#f4f4f5' }} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="succeeded" name="Succeeded" stackId="attempts" fill="#16a34a" isAnimationActive={false} />
          <Bar dataKey="failed" name="Failed" stackId="attempts" fill="#dc2626" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
