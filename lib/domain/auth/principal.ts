import type { Role } from './roles';

// Who is calling. A member sees every app unless held to some (appIds); a member held to exactly one
// app, like an app-limited key, has it as appId, so every app-scoped read and write is held to it by the
// same checks. An admin session's member and a deployment-wide key see every app; an app-limited key
// sees only its app (everything else is not_found, as if it did not exist).
export type Principal =
  | {
      kind: 'admin';
      id: string;
      userId: string;
      sessionId: string;
      email: string;
      role: Role;
      /** The apps this member is held to; empty: every app. */
      appIds: string[];
      appId: string | null;
    }
  | { kind: 'api_key'; id: string; keyId: string; appId: string | null }
  // A customer's portal session (lib/portal): one app, and only the operations the portal offers.
  | { kind: 'portal'; id: string; sessionId: string; appId: string; readOnly: boolean };

export function isDeploymentWide(principal: Principal): boolean {
  return principal.appId === null && !(principal.kind === 'admin' && principal.appIds.length > 0);
}

/** The apps a principal is held to, or null for every app. */
export function visibleAppIds(principal: Principal): string[] | null {
  if (principal.kind === 'admin' && principal.appIds.length > 0) return principal.appIds;
  return principal.appId === null ? null : [principal.appId];
}
