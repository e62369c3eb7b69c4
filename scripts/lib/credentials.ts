// The admin sign-in and a starter API key, so a newcomer can use the dashboard and the API the moment
// `npm start` prints its banner. Both are kept in <data dir>/credentials.json (git-ignored, mode 0600)
// and reused on later starts; the database stores only their hashes.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createApiKey } from '../../lib/api-keys/create-api-key';
import { ensureAdminUser } from '../../lib/auth/ensure-admin-user';
import type { Config } from '../../lib/env';
import type { PrismaClient } from '../../lib/generated/prisma/client';

export interface Credentials {
  adminEmail: string;
  adminPassword: string;
  /** Where the password comes from, for the banner. */
  adminPasswordSource: 'HOOKLINE_ADMIN_PASSWORD' | 'generated';
  apiKey: string;
  apiKeyId: string;
  apiKeyCreated: boolean;
}

interface StoredCredentials {
  adminPassword?: string;
  apiKey?: string;
  apiKeyId?: string;
}

export async function ensureCredentials(config: Config, prisma: PrismaClient): Promise<Credentials> {
  const file = join(config.HOOKLINE_DATA_DIR, 'credentials.json');
  const stored: StoredCredentials = existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : {};

  const adminPassword = config.HOOKLINE_ADMIN_PASSWORD ?? stored.adminPassword ?? randomBytes(12).toString('base64url');
  await ensureAdminUser({ email: config.HOOKLINE_ADMIN_EMAIL, password: adminPassword }, { prisma });

  // The stored key is reused only while it exists in this database and is not revoked: pointing
  // DATABASE_URL elsewhere, or revoking the key in the dashboard, gets a new one.
  let apiKeyCreated = false;
  let { apiKey, apiKeyId } = stored;
  const usable =
    apiKey && apiKeyId ? await prisma.apiKey.findFirst({ where: { id: apiKeyId, revokedAt: null } }) : null;
  if (!usable) {
    const created = await createApiKey({ name: 'Starter key (npm start)', appId: null }, { prisma });
    apiKey = created.key;
    apiKeyId = created.apiKey.id;
    apiKeyCreated = true;
  }

  await mkdir(config.HOOKLINE_DATA_DIR, { recursive: true });
  const toStore: StoredCredentials = {
    adminPassword: config.HOOKLINE_ADMIN_PASSWORD ? undefined : adminPassword,
    apiKey,
    apiKeyId,
  };
  await writeFile(file, `${JSON.stringify(toStore, null, 2)}\n`, { mode: 0o600 });
  return {
    adminEmail: config.HOOKLINE_ADMIN_EMAIL,
    adminPassword,
    adminPasswordSource: config.HOOKLINE_ADMIN_PASSWORD ? 'HOOKLINE_ADMIN_PASSWORD' : 'generated',
    apiKey: apiKey!,
    apiKeyId: apiKeyId!,
    apiKeyCreated,
  };
}
