import type { Attempt } from '@/lib/contract/schemas/deliveries';
import { formatTime } from '../format';
import { cn } from '../ui/cn';

/** "5 s", "5 min", "2 h": the wait between two attempts, as the retry schedule reads. */
function formatGap(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(ms < 36_000_000 ? 1 : 0)} h`;
}

const ok = (attempt: Attempt) =>
  attempt.statusCode != null && attempt.statusCode >= 200 && attempt.statusCode < 300 && !attempt.errorClass;

/**
 * The attempts left to right with the wait before each: the gaps are the backoff (immediately, 5 s,
 * 5 min, ... with jitter), so a schedule that went wrong shows at a glance. A gap's width grows with
 * the log of its length: 5 s and 10 h both stay readable. Ends at the next attempt when one is due.
 * Attempts not recorded (the worker may keep only failed and final ones) simply leave a longer gap.
 */
export function AttemptsTimeline({ attempts, nextAttemptAt }: { attempts: Attempt[]; nextAttemptAt: string | null }) {
  const ordered = [...attempts].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  if (ordered.length === 0) return null;
  const stops = [
    ...ordered.map((attempt) => ({
      key: `attempt-${attempt.attemptNumber}`,
      at: Date.parse(attempt.startedAt),
      attempt,
    })),
    ...(nextAttemptAt ? [{ key: 'next', at: Date.parse(nextAttemptAt), attempt: null }] : []),
  ];
  return (
    <ol
      data-testid="attempts-timeline"
      aria-label="Attempts over time"
      className="flex flex-wrap items-center gap-y-2 text-xs"
    >
      {stops.map((stop, index) => {
        const gap = index > 0 ? stop.at - stops[index - 1]!.at : null;
        return (
          <li key={stop.key} className="flex items-center">
            {gap != null ? (
              <span className="flex items-center text-zinc-500" data-testid="timeline-gap">
                <span
                  className={cn(
                    'mx-1 h-px bg-zinc-300',
                    stop.attempt ? '' : 'border-t border-dashed border-zinc-400 bg-transparent',
                  )}
                  style={{ width: `${Math.round(16 + 12 * Math.log10(1 + Math.max(0, gap) / 1000))}px` }}
                />
                <span className="tabular whitespace-nowrap">{formatGap(gap)}</span>
                <span className="mx-1 h-px w-3 bg-zinc-300" />
              </span>
            ) : null}
            {stop.attempt ? (
              <a
                href={`#attempt-${stop.attempt.attemptNumber}`}
                title={`${formatTime(stop.attempt.startedAt)}: ${stop.attempt.statusCode ?? stop.attempt.errorClass ?? 'no response'}`}
                className={cn(
                  'rounded-full px-2 py-0.5 font-medium ring-1 ring-inset hover:underline',
                  ok(stop.attempt)
                    ? 'bg-green-50 text-green-700 ring-green-200'
                    : 'bg-red-50 text-red-700 ring-red-200',
                )}
              >
                #{stop.attempt.attemptNumber} {stop.attempt.statusCode ?? stop.attempt.errorClass ?? '—'}
              </a>
            ) : (
              <span
                className="rounded-full px-2 py-0.5 text-amber-800 ring-1 ring-inset ring-amber-200"
                title={nextAttemptAt ?? ''}
              >
                next {formatTime(nextAttemptAt)}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
