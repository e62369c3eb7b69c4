import { requireApp } from '../apps/require-app';
import { getPrisma } from '../../database/db';
import { alertRuleView } from './alert-rule-view';

/** An app's alert rules, oldest first: a handful per app, so one page. */
export async function listAlertRules({ appId }: { appId: string }) {
  await requireApp(appId);
  const rows = await getPrisma().alertRule.findMany({
    where: { appId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return { data: rows.map(alertRuleView), nextCursor: null };
}
