'use client';
import { countOf } from '../format';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';

/**
 * The question every replay that includes a delivered event asks first (a delivery's page, a message's
 * "Replay to every endpoint", the explorer's "Replay selected"): its receiver already answered 2xx, and
 * sending it again is a second delivery of the same event (same webhook-id) that only a receiver
 * deduplicating on webhook-id would ignore. The earlier success stays in the attempt log either way.
 */
export function ReplaySuccessDialog({
  open,
  succeeded,
  total,
  onClose,
  onConfirm,
}: {
  open: boolean;
  /** How many of the deliveries about to be replayed already succeeded. */
  succeeded: number;
  /** How many deliveries the replay covers in all. */
  total: number;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const one = total === 1;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={one ? 'Send a delivered event again?' : 'Send delivered events again?'}
      footer={
        <>
          <Button onClick={onClose}>Keep it as it is</Button>
          <Button
            variant="primary"
            onClick={() => {
              onClose();
              onConfirm();
            }}
          >
            {one ? 'Send it again' : `Replay ${countOf(total, 'delivery', 'deliveries')}`}
          </Button>
        </>
      }
    >
      <p className="text-sm text-zinc-700" data-testid="replay-success-count">
        {one
          ? 'The endpoint already accepted this delivery.'
          : `${countOf(succeeded, 'delivery', 'deliveries')} of the ${total} already succeeded.`}{' '}
        Replaying sends the same event again, with the same webhook-id: a receiver that deduplicates on it ignores the
        copy, any other acts on it twice.
      </p>
      <p className="text-sm text-zinc-700">
        {one ? 'The successful attempt stays' : 'Their successful attempts stay'} in the attempt log.
      </p>
    </Dialog>
  );
}
