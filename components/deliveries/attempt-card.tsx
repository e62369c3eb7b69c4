import type { Attempt } from '@/lib/queries/types';
import { formatMs, formatTime } from '../format';
import { ErrorClass, StatusCode } from '../shared/state-badge';
import { Badge } from '../ui/badge';
import { Card } from '../ui/card';
import { TextBlock } from '../ui/text-block';

/** Header values are whatever the receiver sent back; shown one per line, as text. */
function headersText(headers: Record<string, unknown> | null): string {
  if (!headers || Object.keys(headers).length === 0) return '(none)';
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('\n');
}

export function AttemptCard({ attempt }: { attempt: Attempt }) {
  const ok = attempt.statusCode != null && attempt.statusCode >= 200 && attempt.statusCode < 300 && !attempt.errorClass;
  return (
    <Card data-testid="attempt" className="overflow-hidden">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-zinc-100 px-4 py-2.5 text-sm">
        <span className="font-semibold">Attempt {attempt.attemptNumber}</span>
        <Badge tone={ok ? 'ok' : 'fail'}>{ok ? 'succeeded' : 'failed'}</Badge>
        <span>
          Status <StatusCode code={attempt.statusCode} />
        </span>
        {attempt.errorClass ? <ErrorClass value={attempt.errorClass} /> : null}
        <span className="tabular text-zinc-600">{formatMs(attempt.durationMs)}</span>
        <span className="text-xs text-zinc-500" title={attempt.startedAt}>
          {formatTime(attempt.startedAt)}
        </span>
        {attempt.workerId ? <span className="truncate font-mono text-xs text-zinc-400">{attempt.workerId}</span> : null}
      </div>
      {attempt.errorMessage ? (
        <div className="border-b border-zinc-100 px-4 py-2">
          <div className="mb-1 text-xs font-medium text-zinc-500">Error</div>
          <TextBlock label="Error message" text={attempt.errorMessage} className="border-red-200 bg-red-50 text-red-900" />
        </div>
      ) : null}
      <div className="grid gap-3 px-4 py-3 lg:grid-cols-2">
        <div className="min-w-0">
          <div className="mb-1 text-xs font-medium text-zinc-500">Request headers</div>
          <TextBlock label="Request headers" text={headersText(attempt.requestHeaders)} />
        </div>
        <div className="min-w-0">
          <div className="mb-1 text-xs font-medium text-zinc-500">Response headers</div>
          <TextBlock label="Response headers" text={headersText(attempt.responseHeaders)} />
        </div>
        <div className="min-w-0 lg:col-span-2">
          <div className="mb-1 text-xs font-medium text-zinc-500">
            Response body{attempt.responseTruncated ? ' (truncated: only the first bytes are kept)' : ''}
          </div>
          <TextBlock
            label="Response body"
            text={attempt.responseBody == null ? '(no body)' : attempt.responseBody || '(empty)'}
          />
        </div>
      </div>
    </Card>
  );
}
