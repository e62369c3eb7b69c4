import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { alertRuleAuditFields } from './alert-rule-audit-fields';
import { notFound } from '../errors';

/** Deleting a firing rule leaves its issue as it is; an operator resolves it. */
export async function deleteAlertRule({ appId, ruleId }: { appId: string; ruleId: string }): Promise<void> {
  const deleted = await getPrisma().$transaction(async (tx) => {
    const before = await tx.alertRule.findFirst({ where: { id: ruleId, appId } });
    if (!before) return false;
    await tx.alertRule.delete({ where: { id: ruleId } });
    await recordAuditEvent(tx, {
      action: 'alert_rule.deleted',
      resourceType: 'alert_rule',
      resourceId: ruleId,
      appId,
      before: alertRuleAuditFields(before),
    });
    return true;
  });
  if (!deleted) throw notFound('Alert rule', ruleId);
}
