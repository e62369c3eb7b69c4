import type { AlertRule } from '../../generated/prisma/client';

/** What the audit log compares of an alert rule: its settings, not its state (which the worker moves). */
export function alertRuleAuditFields(rule: AlertRule) {
  return {
    kind: rule.kind,
    threshold: rule.threshold,
    windowMinutes: rule.windowMinutes,
    description: rule.description,
    enabled: rule.enabled,
  };
}
