'use client';
import { useQuery } from '@tanstack/react-query';
import { endpointSecretQuery } from '@/lib/client/queries/endpoints';
import { formatTime } from '../../format';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { InlineError, Loading } from '../../ui/states';
import type { EndpointDialogProps } from './endpoint-dialog-props';

/** The secrets that sign now: more than one during a rotation's grace period, each with when it stops. */
export function SigningSecretsDialog({ endpoint, onClose }: Omit<EndpointDialogProps, 'onDone'>) {
  const secrets = useQuery(endpointSecretQuery(endpoint.appId, endpoint.id));
  return (
    <Dialog open onClose={onClose} title="Signing secrets" footer={<Button onClick={onClose}>Close</Button>}>
      {secrets.isPending ? (
        <Loading />
      ) : secrets.isError ? (
        <InlineError error={secrets.error} />
      ) : (
        <ul className="space-y-2" data-testid="endpoint-secrets">
          {secrets.data.secrets.map((secret) => (
            <li key={secret.secret}>
              <code className="block break-all rounded bg-zinc-50 px-2 py-1.5 font-mono text-xs ring-1 ring-zinc-200">
                {secret.secret}
              </code>
              <span className="text-xs text-zinc-500">
                created {formatTime(secret.createdAt)}
                {secret.expiresAt ? ` · stops signing ${formatTime(secret.expiresAt)}` : ' · active'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
