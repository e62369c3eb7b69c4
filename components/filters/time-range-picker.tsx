'use client';
import { TIME_RANGES, type TimeRange } from '@/lib/client/queries/time-range';
import { cn } from '../ui/cn';

export function TimeRangePicker({
  value,
  onChange,
  allowAll = false,
}: {
  value: TimeRange | undefined;
  onChange: (range: TimeRange | undefined) => void;
  allowAll?: boolean;
}) {
  const options: { key: TimeRange | undefined; label: string }[] = [
    ...(Object.entries(TIME_RANGES) as [TimeRange, { label: string }][]).map(([key, { label }]) => ({ key, label })),
    ...(allowAll ? [{ key: undefined, label: 'All' }] : []),
  ];
  return (
    <div
      role="group"
      aria-label="Time range"
      className="inline-flex overflow-hidden rounded-md border border-zinc-300 bg-white"
    >
      {options.map((option) => (
        <button
          key={option.label}
          type="button"
          aria-pressed={value === option.key}
          onClick={() => onChange(option.key)}
          className={cn(
            'h-9 border-r border-zinc-200 px-2.5 text-xs font-medium last:border-r-0',
            value === option.key ? 'bg-zinc-900 text-white' : 'text-zinc-700 hover:bg-zinc-100',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
