'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeStates, FAILED_STATES } from '@/lib/domain/deliveries/delivery-states';
import { deliveryKeys } from '@/lib/client/queries/deliveries';
import {
  disableEndpoint,
  enableEndpoint,
  endpointKeys,
  endpointSecretQuery,
  recoverCountQuery,
  recoverEndpoint,
  rotateEndpointSecret,
  sendTestEvent,
  updateEndpoint,
} from '@/lib/client/queries/endpoints';
import { eventTypesQuery } from '@/lib/client/queries/event-types';
import { backfillCountQuery, jobKeys, startBackfill } from '@/lib/client/queries/jobs';
import { statsKeys } from '@/lib/client/queries/stats';
import type { Endpoint } from '@/lib/contract/schemas/endpoints';
import { countOf, formatTime, toLocalInputValue } from '../format';
import { JobProgress } from '../jobs/job-progress';
import { OneTimeSecret } from '../shared/one-time-secret';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Field, Input, Select } from '../ui/field';
import { InlineError, Loading } from '../ui/states';
import { EndpointForm } from './endpoint-form';

type Panel = 'edit' | 'disable' | 'rotate' | 'secret' | 'test' | 'recover' | 'backfill' | null;

export function EndpointActions({ endpoint }: { endpoint: Endpoint }) {
  const { appId, id } = endpoint;
  const [panel, setPanel] = useState<Panel>(null);
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: endpointKeys.forApp(appId) }),
      queryClient.invalidateQueries({ queryKey: deliveryKeys.forApp(appId) }),
      queryClient.invalidateQueries({ queryKey: statsKeys.all }),
    ]);
  const refreshJobs = () => queryClient.invalidateQueries({ queryKey: jobKeys.forApp(appId) });
  const close = () => setPanel(null);
  const enable = useMutation({ mutationFn: () => enableEndpoint(appId, id), onSuccess: refresh });
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => setPanel('edit')}>Edit</Button>
        {endpoint.enabled ? (
          <Button onClick={() => setPanel('disable')}>Disable</Button>
        ) : (
          <Button variant="primary" disabled={enable.isPending} onClick={() => enable.mutate()}>
            Enable
          </Button>
        )}
        <Button onClick={() => setPanel('test')}>Send test event</Button>
        <Button onClick={() => setPanel('recover')}>Recover…</Button>
        <Button onClick={() => setPanel('backfill')}>Backfill…</Button>
        <Button onClick={() => setPanel('secret')}>Show secret</Button>
        <Button onClick={() => setPanel('rotate')}>Rotate secret</Button>
      </div>
      <InlineError error={enable.error} />
      {panel === 'edit' ? <EditDialog endpoint={endpoint} onClose={close} onDone={refresh} /> : null}
      {panel === 'disable' ? <DisableDialog endpoint={endpoint} onClose={close} onDone={refresh} /> : null}
      {panel === 'rotate' ? <RotateDialog endpoint={endpoint} onClose={close} onDone={refresh} /> : null}
      {panel === 'secret' ? <SecretDialog endpoint={endpoint} onClose={close} /> : null}
      {panel === 'test' ? <TestDialog endpoint={endpoint} onClose={close} onDone={refresh} /> : null}
      {panel === 'recover' ? (
        <RecoverDialog endpoint={endpoint} onClose={close} onDone={refresh} onJobStarted={refreshJobs} />
      ) : null}
      {panel === 'backfill' ? (
        <BackfillDialog endpoint={endpoint} onClose={close} onDone={refresh} onJobStarted={refreshJobs} />
      ) : null}
    </>
  );
}

interface DialogProps {
  endpoint: Endpoint;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}

function EditDialog({ endpoint, onClose, onDone }: DialogProps) {
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

function DisableDialog({ endpoint, onClose, onDone }: DialogProps) {
  const [reason, setReason] = useState('');
  const disable = useMutation({
    mutationFn: () => disableEndpoint(endpoint.appId, endpoint.id, reason.trim() || undefined),
    onSuccess: async () => {
      await onDone();
      onClose();
    },
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title="Disable endpoint"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" disabled={disable.isPending} onClick={() => disable.mutate()}>
            Disable
          </Button>
        </>
      }
    >
      <p className="text-sm text-zinc-600">
        No request is sent while the endpoint is disabled. New messages still create deliveries; they wait, without
        spending attempts, until it is enabled again.
      </p>
      <Field label="Reason (shown on the endpoint)">
        <Input value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Receiver under maintenance" />
      </Field>
      <InlineError error={disable.error} />
    </Dialog>
  );
}

function RotateDialog({ endpoint, onClose, onDone }: DialogProps) {
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

function SecretDialog({ endpoint, onClose }: Omit<DialogProps, 'onDone'>) {
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

function TestDialog({ endpoint, onClose, onDone }: DialogProps) {
  const eventTypes = useQuery(eventTypesQuery(endpoint.appId));
  const [eventType, setEventType] = useState('');
  const send = useMutation({
    mutationFn: () => sendTestEvent(endpoint.appId, endpoint.id, eventType || undefined),
    onSuccess: onDone,
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title="Send a test event"
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button variant="primary" disabled={send.isPending} onClick={() => send.mutate()}>
            Send
          </Button>
        </>
      }
    >
      <Field label="Event type" hint="Delivered only to this endpoint.">
        <Select value={eventType} onChange={(e) => setEventType(e.target.value)}>
          <option value="">Default test event</option>
          {eventTypes.data?.data
            .filter((type) => !type.archived)
            .map((type) => (
              <option key={type.id} value={type.name}>
                {type.name}
              </option>
            ))}
        </Select>
      </Field>
      {send.data ? (
        <p role="status" className="text-sm text-green-700">
          Sent message <span className="font-mono">{send.data.id}</span>; its delivery appears below.
        </p>
      ) : null}
      <InlineError error={send.error} />
    </Dialog>
  );
}

function RecoverDialog({ endpoint, onClose, onDone, onJobStarted }: DialogProps & { onJobStarted: () => unknown }) {
  const [since, setSince] = useState(() => toLocalInputValue(new Date(Date.now() - 60 * 60_000)));
  // The browser reads the input as local time; the API gets the same instant in UTC.
  const sinceDate = since ? new Date(since) : null;
  const valid = sinceDate !== null && !Number.isNaN(sinceDate.getTime());
  // Starts a background job; the dialog then follows its progress and can cancel it.
  const recover = useMutation({
    mutationFn: () => recoverEndpoint(endpoint.appId, endpoint.id, sinceDate!.toISOString()),
    onSuccess: onJobStarted,
  });
  // The confirmation says how many before anything changes; counted again whenever `since` changes.
  const toReplay = useQuery({
    ...recoverCountQuery(endpoint.appId, endpoint.id, valid ? sinceDate.toISOString() : null),
    enabled: valid && !recover.data,
  });
  const matched = toReplay.data?.matched;
  return (
    <Dialog
      open
      onClose={onClose}
      title="Recover failed deliveries"
      footer={
        recover.data ? (
          <Button onClick={onClose}>Close</Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              variant="danger"
              disabled={recover.isPending || !valid || matched === undefined || matched === 0}
              onClick={() => recover.mutate()}
            >
              Replay failed since then
            </Button>
          </>
        )
      }
    >
      <p className="text-sm text-zinc-600">
        Every failed delivery to this endpoint ({describeStates(FAILED_STATES)}, the same set as the explorer&apos;s
        &ldquo;Replay failed&rdquo;) created since the chosen time is sent again, by a background job you can follow and
        cancel here or on the app&apos;s Jobs page.
      </p>
      <Field
        label="Since (your local time)"
        hint={valid ? `That is ${sinceDate.toISOString()} in UTC.` : 'Choose a date and time.'}
      >
        <Input
          type="datetime-local"
          step={1}
          disabled={recover.isPending || recover.isSuccess}
          value={since}
          onChange={(e) => setSince(e.target.value)}
        />
      </Field>
      {!recover.data && valid ? (
        <p data-testid="recover-count" className="text-sm text-zinc-700">
          {matched === undefined
            ? toReplay.isError
              ? null
              : 'Counting failed deliveries…'
            : matched === 0
              ? 'Nothing to replay: no delivery to this endpoint has failed since then.'
              : `${countOf(matched, 'failed delivery', 'failed deliveries')} will be sent again.`}
        </p>
      ) : null}
      <InlineError error={toReplay.error} />
      {recover.data ? <JobProgress job={recover.data.job} onFinished={() => void onDone()} /> : null}
      <InlineError error={recover.error} />
    </Dialog>
  );
}

function BackfillDialog({ endpoint, onClose, onDone, onJobStarted }: DialogProps & { onJobStarted: () => unknown }) {
  const [since, setSince] = useState(() => toLocalInputValue(new Date(Date.now() - 24 * 60 * 60_000)));
  const sinceDate = since ? new Date(since) : null;
  const valid = sinceDate !== null && !Number.isNaN(sinceDate.getTime());
  const backfill = useMutation({
    mutationFn: () => startBackfill(endpoint.appId, endpoint.id, sinceDate!.toISOString()),
    onSuccess: onJobStarted,
  });
  const toSend = useQuery({
    ...backfillCountQuery(endpoint.appId, endpoint.id, valid ? sinceDate.toISOString() : null),
    enabled: valid && !backfill.data,
  });
  const matched = toSend.data?.matched;
  const types = endpoint.eventTypes.length ? endpoint.eventTypes.join(', ') : 'every event type';
  return (
    <Dialog
      open
      onClose={onClose}
      title="Backfill this endpoint"
      footer={
        backfill.data ? (
          <Button onClick={onClose}>Close</Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              variant="primary"
              disabled={backfill.isPending || !valid || matched === undefined || matched === 0}
              onClick={() => backfill.mutate()}
            >
              Send them
            </Button>
          </>
        )
      }
    >
      <p className="text-sm text-zinc-600">
        Every message of this app since the chosen time that this endpoint subscribes to ({types}) and has not received
        is sent to it, oldest first, at the endpoint&apos;s own pace (its max concurrency of {endpoint.maxConcurrency}),
        by a background job you can follow and cancel.
      </p>
      <Field
        label="Since (your local time)"
        hint={valid ? `That is ${sinceDate.toISOString()} in UTC.` : 'Choose a date and time.'}
      >
        <Input
          type="datetime-local"
          step={1}
          disabled={backfill.isPending || backfill.isSuccess}
          value={since}
          onChange={(e) => setSince(e.target.value)}
        />
      </Field>
      {!backfill.data && valid ? (
        <p data-testid="backfill-count" className="text-sm text-zinc-700">
          {matched === undefined
            ? toSend.isError
              ? null
              : 'Counting messages…'
            : matched === 0
              ? 'Nothing to send: the endpoint has every matching message since then.'
              : `${countOf(matched, 'message', 'messages')} will be sent to this endpoint.`}
        </p>
      ) : null}
      <InlineError error={toSend.error} />
      {backfill.data ? <JobProgress job={backfill.data.job} onFinished={() => void onDone()} /> : null}
      <InlineError error={backfill.error} />
    </Dialog>
  );
}
