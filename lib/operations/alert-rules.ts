// Alert rules per app (evaluated by worker/operations/run-operations-pass.ts). CRUD only; small rows.
import { requireApp } from '../apps/require-app';
import { getPrisma } from '../db';
import { invalid, notFound } from '../errors';
import type { AlertRule } from '../generated/prisma/client';

type Kind = 'success_rate_below' | 'oldest_waiting_above' | 'dead_per_hour_above';

function alertRuleView(row: AlertRule) {
  return { ...row, kind: row.kind as Kind };
}

export async function listAlertRules({ appId }: { appId: string }) {
  await requireApp(appId);
  const rows = await getPrisma().alertRule.findMany({
    where: { appId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return { data: rows.map(alertRuleView), nextCursor: null };
}

export async function createAlertRule(input: {
  appId: string;
  kind: Kind;
  threshold: number;
  windowMinutes?: number;
  description?: string;
  enabled?: boolean;
}) {
  await requireApp(input.appId);
  const row = await getPrisma().alertRule.create({
    data: {
      appId: input.appId,
      kind: input.kind,
      threshold: input.threshold,
      windowMinutes: input.windowMinutes ?? 15,
      description: input.description ?? '',
      enabled: input.enabled ?? true,
    },
  });
  return alertRuleView(row);
}

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
  const updated = await prisma.alertRule.update({ where: { id: ruleId }, data: { ...changes, updatedAt: new Date() } });
  return alertRuleView(updated);
}

/** Deleting a firing rule leaves its issue as it is; an operator resolves it. */
export async function deleteAlertRule({ appId, ruleId }: { appId: string; ruleId: string }): Promise<void> {
  const { count } = await getPrisma().alertRule.deleteMany({ where: { id: ruleId, appId } });
  if (count === 0) throw notFound('Alert rule', ruleId);
}
