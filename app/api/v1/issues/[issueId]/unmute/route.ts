import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { muteIssue } from '@/lib/domain/operational-events/mute-issue';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.unmuteIssue, ({ principal, params }) =>
  muteIssue({ ...params, minutes: null, ...scopedApps(principal, undefined) }),
);
