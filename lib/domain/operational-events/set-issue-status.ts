import { getPrisma } from '../../database/db';
import { DomainError, notFound } from '../errors';
import { issueView } from './issue-view';

/**
 * Acknowledge (someone is on it: it leaves the open count but stays unresolved) or resolve. Each is
 * guarded in its WHERE clause by the status it moves from, so two operators clicking at once cannot
 * resolve an issue that just reopened: the second update matches nothing and is told why.
 */
export async function setIssueStatus({
  issueId,
  appId,
  status,
}: {
  issueId: string;
  appId?: string;
  status: 'acknowledged' | 'resolved';
}) {
  const prisma = getPrisma();
  const scope = { id: issueId, ...(appId ? { appId } : {}) };
  const now = new Date();
  const { count } = await prisma.issue.updateMany({
    where: { ...scope, status: status === 'acknowledged' ? 'open' : { in: ['open', 'acknowledged'] } },
    data: status === 'acknowledged' ? { status, acknowledgedAt: now } : { status, resolvedAt: now },
  });
  const row = await prisma.issue.findFirst({ where: scope });
  if (!row) throw notFound('Issue', issueId);
  if (count === 0 && row.status !== status) {
    throw new DomainError(
      'issue_resolved',
      `Issue ${issueId} is resolved; it reopens by itself when the problem happens again`,
    );
  }
  return issueView(row);
}

export const acknowledgeIssue = (input: { issueId: string; appId?: string }) =>
  setIssueStatus({ ...input, status: 'acknowledged' });
export const resolveIssue = (input: { issueId: string; appId?: string }) =>
  setIssueStatus({ ...input, status: 'resolved' });
