'use client';
import { useDeferredValue, useState } from 'react';
import { Input } from '../ui/field';

/**
 * The text a picker's options are narrowed by, for a list longer than the one page of 250 a picker
 * reads (an app, endpoint or event type per customer runs to thousands). `typed` is what to query: the
 * trimmed text, deferred so typing stays responsive while the options load. The box shows only when it
 * is needed (`more`: the list as narrowed so far has a next page) or already holds text; a picker's box
 * sits beside its select, `className` places it elsewhere (full width above a checklist).
 */
export function useFindBox(label: string) {
  const [text, setText] = useState('');
  const typed = useDeferredValue(text.trim());
  const box = (more: boolean, className = 'w-32') =>
    text !== '' || more ? (
      <Input
        type="search"
        aria-label={label}
        placeholder={`${label}…`}
        className={className}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    ) : null;
  return { typed, box };
}
