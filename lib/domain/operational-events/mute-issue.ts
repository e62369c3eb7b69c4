import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { notFound } from '../errors';
import { appScopeWhere, type AppScope } from '../apps/app-scope';
import { issueView } from './issue-view';

/**
 * Mutes an issue for `minutes` (null: unmutes it now). Nothing about it is sent meanwhile; when the mute
 * ends the operations pass sends what changed (a resolve, a reopen) or, for an issue that opened while
 * muted and is still open, a reminder. Its events are recorded all along.
 */
export async function muteIssue({
  issueId,
  minutes,
  ...apps
}: AppScope & {
  issueId: string;
  minutes: number | null;
}) {
  const prisma = getPrisma();
  const scope = { id: issueId, ...appScopeWhere(apps) };
  const mutedUntil = minutes === null ? null : new Date(Date.now() + minutes * 60_000);
  const found = await prisma.$transaction(async (tx) => {
    const before = await tx.issue.findFirst({ where: scope });
    if (!before) return false;
    await tx.issue.update({ where: { id: issueId }, data: { mutedUntil } });
    await recordAuditEvent(tx, {
      action: mutedUntil ? 'issue.muted' : 'issue.unmuted',
      resourceType: 'issue',
      resourceId: issueId,
      appId: before.appId,
      before: { mutedUntil: before.mutedUntil },
      after: { mutedUntil },
    });
    return true;
  });
  if (!found) throw notFound('Issue', issueId);
  const row = (await prisma.issue.findFirst({ where: scope }))!;
  const endpoint = row.endpointId
    ? await prisma.endpoint.findUnique({ where: { id: row.endpointId }, select: { url: true } })
    : null;
  return issueView(row, endpoint?.url ?? null);
}
