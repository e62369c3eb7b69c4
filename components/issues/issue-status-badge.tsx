import type { IssueStatus } from '@/lib/contract/schemas/operations';
import { Badge, type Tone } from '../ui/badge';

const TONES: Record<IssueStatus, Tone> = { open: 'fail', acknowledged: 'retry', resolved: 'ok' };

export function IssueStatusBadge({ status }: { status: IssueStatus }) {
  return <Badge tone={TONES[status]}>{status}</Badge>;
}
