'use client';
import { useMutation } from '@tanstack/react-query';
import { updateEndpoint } from '@/lib/client/queries/endpoints';
import { Dialog } from '../../ui/dialog';
import { EndpointForm } from '../endpoint-form';
import type { EndpointDialogProps } from './endpoint-dialog-props';

export function EditEndpointDialog({ endpoint, onClose, onDone }: EndpointDialogProps) {
  const save = useMutation({
    mutationFn: (input: Parameters<typeof updateEndpoint>[2]) => updateEndpoint(endpoint.appId, endpoint.id, input),
    onSuccess: async () => {
      await onDone();
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} title="Edit endpoint">
      <EndpointForm
        appId={endpoint.appId}
        endpoint={endpoint}
        submitLabel="Save"
        pending={save.isPending}
        error={save.error}
        onSubmit={(input) => save.mutate(input)}
        onCancel={onClose}
      />
    </Dialog>
  );
}
