import type { ReactNode } from 'react';
import { cn } from './cn';

export type Tone = 'neutral' | 'ok' | 'fail' | 'retry' | 'flight';

const tones: Record<Tone, string> = {
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-200',
  ok: 'bg-green-50 text-green-700 ring-green-200',
  fail: 'bg-red-50 text-red-700 ring-red-200',
  retry: 'bg-amber-50 text-amber-800 ring-amber-200',
  flight: 'bg-blue-50 text-blue-700 ring-blue-200',
};

export function Badge({ tone = 'neutral', children, title }: { tone?: Tone; children: ReactNode; title?: string }) {
  return (
    <span
      title={title}
      className={cn('inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset', tones[tone])}
    >
      {children}
    </span>
  );
}
