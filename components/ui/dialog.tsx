'use client';
import { useEffect, useRef, type ReactNode } from 'react';

/** A modal on the native <dialog> element: focus trapping, Escape and the backdrop come from the browser. */
export function Dialog({
  open,
  onClose,
  title,
  children,
  footer,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-label={title}
      className="m-auto w-[min(34rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 shadow-xl backdrop:bg-zinc-900/40"
    >
      {open ? (
        <div>
          <div className="border-b border-zinc-100 px-4 py-3">
            <h2 className="text-sm font-semibold">{title}</h2>
          </div>
          <div className="space-y-3 px-4 py-3">{children}</div>
          {footer ? <div className="flex justify-end gap-2 border-t border-zinc-100 px-4 py-3">{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
