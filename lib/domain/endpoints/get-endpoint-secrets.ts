import { getPrisma } from '../../database/db';
import { decryptSecret } from '../../runtime/secret-box';
import { findEndpoint } from './find-endpoint';

/** The secrets that currently sign (the newest first; during a rotation the old one too). */
export async function getEndpointSecrets({ appId, endpointId }: { appId: string; endpointId: string }) {
  await findEndpoint(appId, endpointId);
  const rows = await getPrisma().endpointSecret.findMany({
    where: { endpointId, appId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return {
    secrets: rows.map((row) => ({
      secret: decryptSecret(row.secret),
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
    })),
  };
}
