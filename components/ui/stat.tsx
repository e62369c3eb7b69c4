import type { ReactNode } from 'react';
import { cn } from './cn';

export function Stat({
  label,
  value,
  hint,
  tone,
  testId,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  tone?: 'ok' | 'fail' | 'retry' | 'flight';
  testId?: string;
}) {
  const toneClass = {
    ok: 'text-green-700',
    fail: 'text-red-700',
    retry: 'text-amber-700',
    flight: 'text-blue-700',
  };
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-3 py-2.5">
      <div className="text-xs font-medium text-zinc-500">{label}</div>
      <div data-testid={testId} className={cn('tabular mt-0.5 text-xl font-semibold', tone && toneClass[tone])}>
        {value}
      </div>
      {hint ? <div className="text-xs text-zinc-500">{hint}</div> : null}
    </div>
  );
}
