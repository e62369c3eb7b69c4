'use client';
import { useState } from 'react';
import { curlCommand } from '@/lib/domain/deliveries/curl-command';
import type { Attempt } from '@/lib/contract/schemas/deliveries';
import { formatMs, formatTime } from '../format';
import { CopyButton } from '../shared/copy-button';
import { ErrorClass, StatusCode } from '../shared/state-badge';
import { useViewer, type Viewer } from '../shared/viewer';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { TextBlock } from '../ui/text-block';

/** Header values are whatever the receiver sent back; shown one per line, as text. */
function headersText(headers: Record<string, unknown> | null): string {
  if (!headers || Object.keys(headers).length === 0) return '(none)';
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('\n');
}

function bodyText(attempt: Attempt, viewer: Viewer): string {
  if (attempt.keptOnDelivery) return successNotKept(viewer);
  return attempt.responseBody == null ? '(no body)' : attempt.responseBody || '(empty)';
}

function responseHeadersText(attempt: Attempt, viewer: Viewer): string {
  return attempt.keptOnDelivery ? successNotKept(viewer) : headersText(attempt.responseHeaders);
}

// The worker keeps a success on its delivery row (status, time, duration) unless the deployment sets
// HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS; its request headers are rebuilt, its response is gone. Only the
// operator can set that variable: a customer is told what happened, not how to configure a server.
function successNotKept(viewer: Viewer): string {
  return viewer.kind === 'operator'
    ? '(not kept for successes: set HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS=true to keep them)'
    : '(not kept for successful attempts: the status and time above are what your endpoint answered)';
}

/** One attempt's outcome as a column of the side-by-side view. */
function ResponseColumn({ attempt }: { attempt: Attempt }) {
  const viewer = useViewer();
  return (
    <div className="min-w-0 space-y-2" data-testid={`compare-attempt-${attempt.attemptNumber}`}>
      <div className="text-xs font-medium text-zinc-700">
        Attempt {attempt.attemptNumber} · <StatusCode code={attempt.statusCode} />{' '}
        <ErrorClass value={attempt.errorClass} /> · {formatMs(attempt.durationMs)}
      </div>
      {attempt.errorMessage ? <TextBlock label="Error message" text={attempt.errorMessage} /> : null}
      <div className="text-xs text-zinc-500">Response headers</div>
      <TextBlock label="Response headers" text={responseHeadersText(attempt, viewer)} />
      <div className="text-xs text-zinc-500">Response body</div>
      <TextBlock label="Response body" text={bodyText(attempt, viewer)} />
    </div>
  );
}

export function AttemptCard({
  attempt,
  previous,
  request,
}: {
  attempt: Attempt;
  /** The attempt recorded before this one, for the side-by-side view. */
  previous?: Attempt;
  /** What every attempt sends (method, URL and body); the headers are this attempt's own. */
  request?: { method?: string; url: string; body: string };
}) {
  const viewer = useViewer();
  const [comparing, setComparing] = useState(false);
  const [showCurl, setShowCurl] = useState(false);
  const ok = attempt.statusCode != null && attempt.statusCode >= 200 && attempt.statusCode < 300 && !attempt.errorClass;
  const curl = request
    ? curlCommand({
        method: request.method,
        url: request.url,
        headers: attempt.requestHeaders ?? {},
        body: request.body,
      })
    : null;
  return (
    <Card data-testid="attempt" id={`attempt-${attempt.attemptNumber}`} className="overflow-hidden">
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
        {/* Which worker sent it is the operator's business (host names, process ids). */}
        {attempt.workerId && viewer.kind === 'operator' ? (
          <span className="truncate font-mono text-xs text-zinc-400">{attempt.workerId}</span>
        ) : null}
        <span className="ml-auto flex flex-wrap gap-1">
          {curl ? (
            <>
              <CopyButton text={curl} label="Copy as curl" />
              <Button size="sm" variant="ghost" aria-expanded={showCurl} onClick={() => setShowCurl(!showCurl)}>
                {showCurl ? 'Hide curl' : 'Show curl'}
              </Button>
            </>
          ) : null}
          {previous ? (
            <Button size="sm" variant="ghost" aria-expanded={comparing} onClick={() => setComparing(!comparing)}>
              {comparing ? 'Hide comparison' : `Compare with attempt ${previous.attemptNumber}`}
            </Button>
          ) : null}
        </span>
      </div>
      {curl && showCurl ? (
        <div className="border-b border-zinc-100 px-4 py-2">
          <div className="mb-1 text-xs text-zinc-500">
            This attempt&apos;s request with its signature headers; receivers reject a webhook-timestamp older than a
            few minutes.
          </div>
          <TextBlock label="curl command" text={curl} />
        </div>
      ) : null}
      {previous && comparing ? (
        <div
          className="grid gap-3 border-b border-zinc-100 bg-zinc-50/50 px-4 py-3 md:grid-cols-2"
          data-testid="attempt-comparison"
        >
          <ResponseColumn attempt={previous} />
          <ResponseColumn attempt={attempt} />
        </div>
      ) : null}
      {attempt.errorMessage ? (
        <div className="border-b border-zinc-100 px-4 py-2">
          <div className="mb-1 text-xs font-medium text-zinc-500">Error</div>
          <TextBlock
            label="Error message"
            text={attempt.errorMessage}
            className="border-red-200 bg-red-50 text-red-900"
          />
        </div>
      ) : null}
      <div className="grid gap-3 px-4 py-3 lg:grid-cols-2">
        <div className="min-w-0">
          <div className="mb-1 text-xs font-medium text-zinc-500">Request headers</div>
          <TextBlock label="Request headers" text={headersText(attempt.requestHeaders)} />
        </div>
        <div className="min-w-0">
          <div className="mb-1 text-xs font-medium text-zinc-500">Response headers</div>
          <TextBlock label="Response headers" text={responseHeadersText(attempt, viewer)} />
        </div>
        <div className="min-w-0 lg:col-span-2">
          <div className="mb-1 text-xs font-medium text-zinc-500">
            Response body{attempt.responseTruncated ? ' (truncated: only the first bytes are kept)' : ''}
          </div>
          <TextBlock label="Response body" text={bodyText(attempt, viewer)} />
        </div>
      </div>
    </Card>
  );
}
