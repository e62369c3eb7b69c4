import { getPrisma, type PrismaClient } from '../../../database/db';
import type { OidcSettings } from '../../../runtime/api-settings';
import { recordAuditEvent } from '../../audit/record-audit-event';
import { openSession } from '../open-session';
import { discoverIssuer } from './discover-issuer';
import { fetchProviderJson } from './fetch-provider-json';
import { ssoFailed } from './sso-error';
import { verifyIdToken } from './verify-id-token';

export interface FinishSsoInput {
  oidc: OidcSettings;
  redirectUri: string;
  code: string;
  verifier: string;
  nonce: string;
  ttlHours: number;
  userAgent?: string | null;
  ip?: string | null;
}

/**
 * The callback's half of an SSO sign-in, once the caller has checked the state: redeems the code (with
 * the PKCE verifier and the client's secret), verifies the ID token, finds the member by its verified
 * email and opens the same session a password sign-in opens. A member's second factor is not asked:
 * the provider authenticated the person, with whatever factors it requires.
 */
export async function finishSsoSignIn(
  { oidc, redirectUri, code, verifier, nonce, ttlHours, userAgent = null, ip = null }: FinishSsoInput,
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ token: string; expiresAt: Date; userId: string; created: boolean }> {
  const metadata = await discoverIssuer(oidc.issuer);
  const tokens = await fetchProviderJson(metadata.tokenEndpoint, {
    method: 'POST',
    headers: {
      // client_secret_basic (RFC 6749 §2.3.1): id and secret form-encoded, then base64.
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(oidc.clientId)}:${encodeURIComponent(oidc.clientSecret)}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  if (typeof tokens.id_token !== 'string') throw ssoFailed('provider_error', 'The provider answered no ID token');
  const claims = await verifyIdToken({
    idToken: tokens.id_token,
    issuer: metadata.issuer,
    clientId: oidc.clientId,
    nonce,
    jwksUri: metadata.jwksUri,
  });

  // Many providers put the email in the ID token; others (and oidc-provider by default) only at the
  // UserInfo endpoint, for the access token just received. Its answer counts only for the same subject.
  let { email, email_verified: emailVerified } = claims;
  if (email === undefined && metadata.userinfoEndpoint && typeof tokens.access_token === 'string') {
    const info = await fetchProviderJson(metadata.userinfoEndpoint, {
      headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
    });
    if (info.sub !== claims.sub) throw ssoFailed('provider_error', 'The UserInfo answer is about another subject');
    ({ email, email_verified: emailVerified } = info);
  }
  if (typeof email !== 'string' || email.trim() === '') {
    throw ssoFailed('email_unverified', 'The provider gave no email address (the "email" scope was not granted)');
  }
  const normalised = email.trim().toLowerCase();
  // An unverified address is whatever the person typed at the provider: matching on it would let anyone
  // sign in as any member by registering that member's email there.
  if (emailVerified !== true) {
    throw ssoFailed('email_unverified', `The provider has not verified ${normalised}`);
  }

  const { userId, created } = await findOrCreateMember({ email: normalised, defaultRole: oidc.defaultRole }, prisma);
  const session = await openSession({ userId, ttlHours, userAgent, ip }, { prisma });
  return { ...session, userId, created };
}

/**
 * The member with this email; else one made from an open invitation to it (the invited person signs in
 * by SSO instead of choosing a password); else, with a default role configured, a new member.
 */
async function findOrCreateMember(
  { email, defaultRole }: { email: string; defaultRole: OidcSettings['defaultRole'] },
  prisma: PrismaClient,
): Promise<{ userId: string; created: boolean }> {
  const existing = await prisma.adminUser.findUnique({ where: { email }, select: { id: true } });
  if (existing) return { userId: existing.id, created: false };
  const made = await prisma.$transaction(async (tx) => {
    // The same guarded claim as accepting the link (lib/domain/members/accept-invitation.ts): one member
    // however many callbacks race.
    const claimed = await tx.invitation.updateManyAndReturn({
      where: { email, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
      data: { acceptedAt: new Date() },
    });
    const invitation = claimed.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
    const role = invitation?.role ?? defaultRole;
    if (!role) return null;
    const appIds = invitation?.appIds ?? [];
    // skipDuplicates: a callback racing this one may have created the member a moment ago.
    const inserted = await tx.adminUser.createMany({
      // No password (NULL, migration 20261128095000_members_without_password): it signs in by SSO, and
      // password sign-in refuses it as it refuses a wrong password.
      data: [{ email, passwordHash: null, role, appIds }],
      skipDuplicates: true,
    });
    const user = await tx.adminUser.findUniqueOrThrow({ where: { email }, select: { id: true } });
    if (inserted.count === 1) {
      await recordAuditEvent(tx, {
        action: 'member.created',
        resourceType: 'member',
        resourceId: user.id,
        appId: null,
        after: { email, role, appIds, via: invitation ? `sso, invitation ${invitation.id}` : 'sso' },
        ...(role === 'owner' ? { sensitive: 'a new owner, created by single sign-on' } : {}),
      });
    }
    return { userId: user.id, created: inserted.count === 1 };
  });
  if (!made) {
    throw ssoFailed('unknown_member', `${email} is not a member; ask an owner for an invitation`);
  }
  return made;
}
