import { getPrisma } from '../../database/db';
import { notFound } from '../errors';

/** Deleting a firing rule leaves its issue as it is; an operator resolves it. */
export async function deleteAlertRule({ appId, ruleId }: { appId: string; ruleId: string }): Promise<void> {
  const { count } = await getPrisma().alertRule.deleteMany({ where: { id: ruleId, appId } });
  if (count === 0) throw notFound('Alert rule', ruleId);
}
