'use client';
import { useState } from 'react';
import { Button } from '../ui/button';

/** A secret shown once: copy it now, it cannot be read back (API keys) or only by asking again (endpoint secrets). */
export function OneTimeSecret({ value, note, testId }: { value: string; note: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="mb-2 text-xs text-amber-900">{note}</p>
      <div className="flex items-center gap-2">
        <code data-testid={testId} className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-xs ring-1 ring-amber-200">
          {value}
        </code>
        <Button
          size="sm"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}
