import { getPrisma } from '../../database/db';
import { encryptSecret } from '../../runtime/secret-box';
import { recordAuditEvent } from '../audit/record-audit-event';
import { generateSecret } from '../webhooks/sign';
import { findEndpoint } from './find-endpoint';

// A day lets receivers deploy the new secret at their own pace while every request stays verifiable
// (they accept either signature meanwhile, since Standard Webhooks sends one per active secret).
export const DEFAULT_GRACE_PERIOD_SECONDS = 86_400;

/** Adds a new secret; the secrets active until now keep signing for the grace period, then expire. */
export async function rotateEndpointSecret({
  appId,
  endpointId,
  gracePeriodSeconds = DEFAULT_GRACE_PERIOD_SECONDS,
}: {
  appId: string;
  endpointId: string;
  gracePeriodSeconds?: number;
}) {
  await findEndpoint(appId, endpointId);
  const secret = generateSecret();
  await getPrisma().$transaction(async (tx) => {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + gracePeriodSeconds * 1000);
    // Secrets already expiring earlier keep their earlier end; a rotation never extends an old secret.
    await tx.endpointSecret.updateMany({
      where: { endpointId, appId, OR: [{ expiresAt: null }, { expiresAt: { gt: expiresAt } }] },
      data: { expiresAt },
    });
    const created = await tx.endpointSecret.create({
      data: { appId, endpointId, secret: encryptSecret(secret) },
      select: { id: true },
    });
    await recordAuditEvent(tx, {
      action: 'endpoint.secret_rotated',
      resourceType: 'endpoint',
      resourceId: endpointId,
      appId,
      after: { signingKeyId: created.id, previousExpireAt: expiresAt },
    });
  });
  return { secret };
}
