import { requireApp } from '../apps/require-app';
import { recordAuditEvent } from '../audit/record-audit-event';
import { alertRuleAuditFields } from './alert-rule-audit-fields';
import { getPrisma } from '../../database/db';
import { alertRuleView, type AlertRuleKind } from './alert-rule-view';

/** A new rule starts not firing; the worker's operations pass evaluates it within a minute. */
export async function createAlertRule(input: {
  appId: string;
  kind: AlertRuleKind;
  threshold: number;
  windowMinutes?: number;
  description?: string;
  enabled?: boolean;
}) {
  await requireApp(input.appId);
  const row = await getPrisma().$transaction(async (tx) => {
    const rule = await tx.alertRule.create({
      data: {
        appId: input.appId,
        kind: input.kind,
        threshold: input.threshold,
        windowMinutes: input.windowMinutes ?? 15,
        description: input.description ?? '',
        enabled: input.enabled ?? true,
      },
    });
    await recordAuditEvent(tx, {
      action: 'alert_rule.created',
      resourceType: 'alert_rule',
      resourceId: rule.id,
      appId: input.appId,
      after: alertRuleAuditFields(rule),
    });
    return rule;
  });
  return alertRuleView(row);
}
