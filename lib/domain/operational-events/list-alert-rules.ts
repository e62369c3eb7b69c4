import { requireApp } from '../apps/require-app';
import { findPage } from '../cursor';
import { getPrisma } from '../../database/db';
import { alertRuleView } from './alert-rule-view';

/** An app's alert rules, newest first, one page after `cursor` (paged and refused like every list). */
export async function listAlertRules({ appId, limit, cursor }: { appId: string; limit: number; cursor?: string }) {
  await requireApp(appId);
  const prisma = getPrisma();
  const page = await findPage({ where: { appId }, cursor, limit }, (query) => prisma.alertRule.findMany(query));
  return { data: page.data.map(alertRuleView), nextCursor: page.nextCursor };
}
