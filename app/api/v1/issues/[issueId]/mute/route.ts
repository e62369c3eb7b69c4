import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { muteIssue } from '@/lib/domain/operational-events/mute-issue';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.muteIssue, ({ principal, params, body }) =>
  muteIssue({ ...params, minutes: body.minutes, ...scopedApps(principal, undefined) }),
);
