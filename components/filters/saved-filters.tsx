'use client';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../ui/button';
import { Input } from '../ui/field';

interface SavedFilter {
  name: string;
  /** The page's query string, app included: the filter is its URL. */
  query: string;
}

const storageKey = (page: string) => `hookline.saved-filters.${page}`;

function readSaved(page: string): SavedFilter[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(storageKey(page)) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((item): item is SavedFilter => typeof item?.name === 'string' && typeof item?.query === 'string')
      : [];
  } catch {
    return [];
  }
}

/**
 * Named filters for one page. A filter already lives in the URL (shareable as a link); saving gives it
 * a name in this browser's localStorage, so the list is per browser, not per team, and the UI says so.
 */
export function SavedFilters({ page, pathname }: { page: string; pathname: string }) {
  const [saved, setSaved] = useState<SavedFilter[]>([]);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const query = useSearchParams().toString();
  // localStorage exists only in the browser: read after mounting, not during the server render.
  useEffect(() => setSaved(readSaved(page)), [page]);
  const store = (next: SavedFilter[]) => {
    setSaved(next);
    window.localStorage.setItem(storageKey(page), JSON.stringify(next));
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    store([...saved.filter((item) => item.name !== trimmed), { name: trimmed, query }]);
    setName('');
    setNaming(false);
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="saved-filters">
      <span className="text-zinc-500">Saved filters:</span>
      {saved.length === 0 ? <span className="text-zinc-400">none yet</span> : null}
      {saved.map((item) => (
        <span key={item.name} className="inline-flex items-center rounded border border-zinc-200 bg-zinc-50">
          <Link
            href={`${pathname}?${item.query}`}
            className="px-2 py-0.5 hover:underline"
            aria-current={item.query === query ? 'true' : undefined}
          >
            {item.name}
          </Link>
          <button
            type="button"
            aria-label={`Forget ${item.name}`}
            className="px-1.5 text-zinc-400 hover:text-red-700"
            onClick={() => store(saved.filter((other) => other.name !== item.name))}
          >
            ×
          </button>
        </span>
      ))}
      {naming ? (
        <form onSubmit={save} className="flex items-center gap-1">
          <Input
            aria-label="Filter name"
            autoFocus
            className="h-7 w-40 text-xs"
            placeholder="e.g. Acme 5xx"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <Button size="sm" type="submit" variant="primary" disabled={!name.trim()}>
            Save
          </Button>
          <Button size="sm" onClick={() => setNaming(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <Button size="sm" variant="ghost" onClick={() => setNaming(true)}>
          Save this filter…
        </Button>
      )}
      <span className="text-zinc-400">Kept in this browser only; share a filter by copying the page address.</span>
    </div>
  );
}
