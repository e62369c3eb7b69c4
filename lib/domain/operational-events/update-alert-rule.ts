import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { alertRuleAuditFields } from './alert-rule-audit-fields';
import { invalid, notFound } from '../errors';
import { alertRuleView } from './alert-rule-view';

export async function updateAlertRule({
  appId,
  ruleId,
  changes,
}: {
  appId: string;
  ruleId: string;
  changes: { threshold?: number; windowMinutes?: number; description?: string; enabled?: boolean };
}) {
  const prisma = getPrisma();
  const row = await prisma.alertRule.findFirst({ where: { id: ruleId, appId } });
  if (!row) throw notFound('Alert rule', ruleId);
  if (row.kind === 'success_rate_below' && changes.threshold !== undefined && changes.threshold > 100) {
    throw invalid('threshold', 'a success rate is a percentage: 0 to 100');
  }
  const updated = await prisma.$transaction(async (tx) => {
    const after = await tx.alertRule.update({ where: { id: ruleId }, data: { ...changes, updatedAt: new Date() } });
    await recordAuditEvent(tx, {
      action: 'alert_rule.updated',
      resourceType: 'alert_rule',
      resourceId: ruleId,
      appId,
      before: alertRuleAuditFields(row),
      after: alertRuleAuditFields(after),
    });
    return after;
  });
  return alertRuleView(updated);
}
