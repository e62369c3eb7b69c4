import { cn } from './cn';

/**
 * Shows untrusted text (a receiver's response body, headers, an event payload) exactly as text.
 * React escapes it; nothing here may ever use dangerouslySetInnerHTML.
 */
export function TextBlock({ text, className, label }: { text: string; className?: string; label?: string }) {
  return (
    <pre
      aria-label={label}
      className={cn(
        'max-h-80 overflow-auto whitespace-pre-wrap break-all rounded-md border border-zinc-200 bg-zinc-50 p-2.5 font-mono text-xs text-zinc-800',
        className,
      )}
    >
      {text}
    </pre>
  );
}
