import type { ReactNode } from 'react';
import { ApiRequestError } from '@/lib/client/api-client';
import { Button } from './button';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-2 px-4 py-6 text-sm text-zinc-500">
      <span className="h-3 w-3 animate-spin rounded-full border-2 border-zinc-300 border-t-zinc-700" />
      {label}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="px-4 py-8 text-center">
      <p className="text-sm font-medium text-zinc-700">{title}</p>
      {children ? <div className="mt-1 text-sm text-zinc-500">{children}</div> : null}
    </div>
  );
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiRequestError ? error.code : null;
  return (
    <div role="alert" className="m-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-medium">Could not load this{code ? ` (${code})` : ''}.</p>
      <p className="mt-0.5 break-words">{message}</p>
      {retry ? (
        <Button size="sm" className="mt-2" onClick={retry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

export function InlineError({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  );
}
