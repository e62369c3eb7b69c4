'use client';
import { useEffect, useState } from 'react';
import { Input } from '../ui/field';

/** A text filter that commits on Enter or when focus leaves, so typing does not refetch per keystroke. */
export function TextFilter({
  label,
  value,
  onCommit,
  placeholder,
  className,
  inputMode,
}: {
  label: string;
  value: string | undefined;
  onCommit: (value: string | undefined) => void;
  placeholder?: string;
  className?: string;
  inputMode?: 'numeric' | 'text';
}) {
  const [draft, setDraft] = useState(value ?? '');
  useEffect(() => setDraft(value ?? ''), [value]);
  const commit = () => {
    const next = draft.trim() || undefined;
    if (next !== value) onCommit(next);
  };
  return (
    <Input
      aria-label={label}
      placeholder={placeholder ?? label}
      className={className}
      inputMode={inputMode}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
    />
  );
}
