import type { Job } from '@/lib/contract/schemas/jobs';
import { Badge, type Tone } from '../ui/badge';

export const JOB_KIND_INFO: Record<Job['kind'], { label: string; noun: { one: string; many: string }; done: string }> =
  {
    replay: { label: 'Replay by filter', noun: { one: 'delivery', many: 'deliveries' }, done: 'replayed' },
    recover: { label: 'Recover endpoint', noun: { one: 'delivery', many: 'deliveries' }, done: 'replayed' },
    backfill: {
      label: 'Backfill endpoint',
      noun: { one: 'message', many: 'messages' },
      done: 'queued for the endpoint',
    },
  };

const TONES: Record<Job['state'], Tone> = {
  queued: 'neutral',
  running: 'flight',
  succeeded: 'ok',
  failed: 'fail',
  cancelled: 'retry',
};

export function JobStateBadge({ state }: { state: Job['state'] }) {
  return <Badge tone={TONES[state]}>{state}</Badge>;
}
