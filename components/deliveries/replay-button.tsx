'use client';
import { useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';

/**
 * The Replay button of a delivery's page. A failed delivery is replayed at once; a delivered one is
 * asked about first: its receiver already answered 2xx, and sending it again is a second delivery of
 * the same event (same webhook-id) that only a receiver deduplicating on webhook-id would ignore.
 * The earlier success stays in the attempt log either way.
 */
export function ReplayButton({ state, pending, onReplay }: { state: string; pending: boolean; onReplay: () => void }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button
        variant="primary"
        disabled={pending || state === 'delivering'}
        onClick={() => (state === 'succeeded' ? setAsking(true) : onReplay())}
      >
        {pending ? 'Replaying…' : 'Replay'}
      </Button>
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title="Send a delivered event again?"
        footer={
          <>
            <Button onClick={() => setAsking(false)}>Keep it as it is</Button>
            <Button
              variant="primary"
              onClick={() => {
                setAsking(false);
                onReplay();
              }}
            >
              Send it again
            </Button>
          </>
        }
      >
        <p className="text-sm text-zinc-700">
          The endpoint already accepted this delivery. Replaying sends the same event again, with the same webhook-id: a
          receiver that deduplicates on it ignores the copy, any other acts on it twice.
        </p>
        <p className="text-sm text-zinc-700">The successful attempt stays in the attempt log.</p>
      </Dialog>
    </>
  );
}
