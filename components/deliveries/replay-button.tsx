'use client';
import { useState } from 'react';
import { Button } from '../ui/button';
import { ReplaySuccessDialog } from './replay-success-dialog';

/** The Replay button of a delivery's page. A failed delivery is replayed at once; a delivered one is
 * asked about first (replay-success-dialog.tsx). */
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
      <ReplaySuccessDialog
        open={asking}
        succeeded={1}
        total={1}
        onClose={() => setAsking(false)}
        onConfirm={onReplay}
      />
    </>
  );
}
