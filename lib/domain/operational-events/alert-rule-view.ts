import type { AlertRule } from '../../generated/prisma/client';

export type AlertRuleKind = 'success_rate_below' | 'oldest_waiting_above' | 'dead_per_hour_above';

export function alertRuleView(row: AlertRule) {
  return { ...row, kind: row.kind as AlertRuleKind };
}
