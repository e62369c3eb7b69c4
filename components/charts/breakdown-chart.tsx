'use client';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { StatsPoint } from '@/lib/contract/schemas/stats';
import { formatCount } from '../format';
import { ChartFrame } from './chart-frame';
import { AXIS_STYLE, formatTick, formatTooltipTime } from './chart-time';
import { errorClassColor, statusCodeColor } from './outcome-colors';

const OTHER_COLOR = '#e4e4e7';
// More than six stacked colours cannot be told apart; the rest are summed as "other".
const MAX_KEYS = 6;

/** Attempts per bucket split by error class or status code, stacked; the keys are ordered by their
 * total, as the share table beside it. Each key has its fixed colour (outcome-colors.ts), the one its
 * badge shows everywhere else. */
export function BreakdownChart({
  series,
  bucketSeconds,
  field,
  keys,
  testId,
}: {
  series: StatsPoint[];
  bucketSeconds: number;
  field: 'errorClasses' | 'statusCodes';
  /** Ordered by total, largest first. */
  keys: string[];
  testId: string;
}) {
  const colorOf = field === 'errorClasses' ? errorClassColor : statusCodeColor;
  const shown = keys.slice(0, MAX_KEYS);
  const rest = new Set(keys.slice(MAX_KEYS));
  const order = new Map(shown.map((key, index) => [key, index]));
  const data = series.map((point) => {
    const counts = point[field];
    const row: Record<string, unknown> = { time: point.time };
    for (const key of shown) row[key] = counts[key] ?? 0;
    if (rest.size) row.other = Object.entries(counts).reduce((sum, [key, n]) => (rest.has(key) ? sum + n : sum), 0);
    return row;
  });
  return (
    <ChartFrame testId={testId} emptyText={keys.length ? null : 'Nothing in this range'}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} barCategoryGap={1}>
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
          <Tooltip
            labelFormatter={formatTooltipTime}
            cursor={{ fill: '#f4f4f5' }}
            formatter={(value) => formatCount(Number(value))}
          />
          {/* Largest first, as in the share table; Recharts would sort the entries by name. */}
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={(item) => order.get(String(item.dataKey)) ?? MAX_KEYS} />
          {shown.map((key) => (
            <Bar
              key={key}
              dataKey={key}
              name={key}
              stackId="breakdown"
              fill={colorOf(key)}
              isAnimationActive={false}
            />
          ))}
          {rest.size ? (
            <Bar dataKey="other" name="other" stackId="breakdown" fill={OTHER_COLOR} isAnimationActive={false} />
          ) : null}
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
