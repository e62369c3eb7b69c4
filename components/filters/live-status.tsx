'use client';
import { useEffect, useState } from 'react';
import { LIVE_REFRESH_MS } from '@/lib/client/queries/refresh';

/** "Live · updated 3s ago", so an operator can tell a quiet system from a stale page. */
export function LiveStatus({
  updatedAt,
  fetching,
  failed,
}: {
  updatedAt: number;
  fetching: boolean;
  failed?: boolean;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = updatedAt ? Math.max(0, Math.round((now - updatedAt) / 1000)) : null;
  const stale = seconds !== null && seconds * 1000 > LIVE_REFRESH_MS * 3;
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-zinc-500" aria-live="polite">
      <span
        className={`h-2 w-2 rounded-full ${failed || stale ? 'bg-red-500' : fetching ? 'bg-blue-500' : 'bg-green-500'}`}
      />
      {failed ? 'Refresh failing' : 'Live'}
      {seconds !== null ? ` · updated ${seconds}s ago` : ''}
    </span>
  );
}
