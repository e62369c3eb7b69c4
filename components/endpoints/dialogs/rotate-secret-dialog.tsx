'use client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { rotateEndpointSecret } from '@/lib/client/queries/endpoints';
import { OneTimeSecret } from '../../shared/one-time-secret';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Field, Input } from '../../ui/field';
import { InlineError } from '../../ui/states';
import type { EndpointDialogProps } from './endpoint-dialog-props';

/** Asks for the old secret's grace period, rotates, then shows the new secret once. */
export function RotateSecretDialog({ endpoint, onClose, onDone }: EndpointDialogProps) {
  const [graceHours, setGraceHours] = useState('24');
  const rotate = useMutation({
    mutationFn: () => rotateEndpointSecret(endpoint.appId, endpoint.id, Math.round(Number(graceHours) * 3600)),
    onSuccess: onDone,
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title="Rotate signing secret"
      footer={
        rotate.data ? (
          <Button onClick={onClose}>Done</Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              variant="danger"
              disabled={rotate.isPending}
              onClick={() => rotate.mutate()}
              data-testid="confirm-rotate"
            >
              Rotate
            </Button>
          </>
        )
      }
    >
      {rotate.data ? (
        <OneTimeSecret
          testId="rotated-secret"
          value={rotate.data.secret}
          note="The new secret. During the grace period every webhook carries one signature per active secret, so the receiver can switch at its own pace."
        />
      ) : (
        <Field label="Grace period (hours) for the old secret">
          <Input type="number" min={0} step="any" value={graceHours} onChange={(e) => setGraceHours(e.target.value)} />
        </Field>
      )}
      <InlineError error={rotate.error} />
    </Dialog>
  );
}
