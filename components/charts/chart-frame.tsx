import type { ReactNode } from 'react';
import { CHART_HEIGHT } from './chart-time';

/** The box a chart draws in. With nothing to plot it says so, rather than leaving bare axes to puzzle over. */
export function ChartFrame({
  testId,
  emptyText,
  children,
}: {
  testId: string;
  /** Set when there is nothing to plot. */
  emptyText?: string | null;
  children: ReactNode;
}) {
  return (
    <div data-testid={testId} className="relative" style={{ height: CHART_HEIGHT }}>
      {children}
      {emptyText ? (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center pb-8">
          <span className="rounded bg-white/90 px-2 py-1 text-xs text-zinc-500">{emptyText}</span>
        </div>
      ) : null}
    </div>
  );
}
