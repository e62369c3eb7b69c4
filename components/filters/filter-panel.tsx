'use client';
import { useState, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';

/** A page's filters: always shown from 640 px up; on a phone folded behind one button that says how
 * many are set, so the list (state, time, endpoint) is on the first screen rather than ten fields. */
export function FilterPanel({ active, children }: { active: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button className="mb-2 w-full sm:hidden" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide filters' : `Filters${active ? ` (${active} set)` : ''}`}
      </Button>
      <div className={cn(!open && 'max-sm:hidden')}>{children}</div>
    </>
  );
}
