import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { DomainError, notFound } from '../errors';
import { appScopeWhere, type AppScope } from '../apps/app-scope';
import { issueView } from './issue-view';

type Action = 'acknowledge' | 'resolve' | 'reopen';

// Each change is guarded in its WHERE clause by the statuses it moves from, so two operators clicking
// at once cannot resolve an issue that just reopened: the second update matches nothing and is told why.
const FROM: Record<Action, string[]> = {
  acknowledge: ['open'],
  resolve: ['open', 'acknowledged'],
  reopen: ['acknowledged', 'resolved'],
};
const TO = { acknowledge: 'acknowledged', resolve: 'resolved', reopen: 'open' } as const;

/**
 * Acknowledge (someone is on it: it leaves the open count and gets no reminders), resolve or reopen.
 * A resolve or reopen is an operator's: it is sent at once (issue.resolved, issue.reopened:
 * hookline.emit_issue_event, migration 20261126120000_alert_notifications) when it changes what the
 * operators were last told, whatever HOOKLINE_ALERT_MIN_INTERVAL says. Resolving an endpoint's issue
 * also ends that endpoint's failing state, so that failing again opens the issue again.
 */
export async function setIssueStatus({ issueId, action, ...apps }: AppScope & { issueId: string; action: Action }) {
  const scope = { id: issueId, ...appScopeWhere(apps) };
  const now = new Date();
  return getPrisma().$transaction(async (tx) => {
    const before = await tx.issue.findFirst({ where: scope });
    if (!before) throw notFound('Issue', issueId);
    const { count } = await tx.issue.updateMany({
      where: { ...scope, status: { in: FROM[action] } },
      data:
        action === 'acknowledge'
          ? { status: TO[action], acknowledgedAt: now }
          : action === 'resolve'
            ? { status: TO[action], resolvedAt: now }
            : {
                status: TO[action],
                acknowledgedAt: null,
                resolvedAt: null,
                ...(before.status === 'resolved' ? { reopenedCount: { increment: 1 } } : {}),
              },
    });
    if (count === 0 && before.status !== TO[action]) {
      throw new DomainError(
        'issue_resolved',
        action === 'reopen'
          ? `Issue ${issueId} is open already`
          : `Issue ${issueId} is resolved; it reopens by itself when the problem happens again, or reopen it`,
      );
    }
    if (count > 0) {
      await recordAuditEvent(tx, {
        action: `issue.${TO[action] === 'open' ? 'reopened' : TO[action]}`,
        resourceType: 'issue',
        resourceId: issueId,
        appId: before.appId,
        before: { status: before.status },
        after: { status: TO[action] },
      });
    }
    if (count > 0 && action === 'resolve' && before.endpointId) {
      await tx.endpoint.updateMany({ where: { id: before.endpointId }, data: { alertFailingSince: null } });
    }
    if (count > 0 && action !== 'acknowledge') {
      await tx.$queryRaw`SELECT hookline.emit_issue_event(${issueId}, ${`issue.${action === 'resolve' ? 'resolved' : 'reopened'}`}, true)`;
    }
    const row = (await tx.issue.findFirst({ where: scope }))!;
    const endpoint = row.endpointId
      ? await tx.endpoint.findUnique({ where: { id: row.endpointId }, select: { url: true } })
      : null;
    return issueView(row, endpoint?.url ?? null);
  });
}

export const acknowledgeIssue = (input: AppScope & { issueId: string }) =>
  setIssueStatus({ ...input, action: 'acknowledge' });
export const resolveIssue = (input: AppScope & { issueId: string }) => setIssueStatus({ ...input, action: 'resolve' });
export const reopenIssue = (input: AppScope & { issueId: string }) => setIssueStatus({ ...input, action: 'reopen' });
