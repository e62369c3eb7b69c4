// Who is calling. An admin session and a deployment-wide key see every app; an app-limited key sees
// only its app (everything else is not_found, as if it did not exist).
export type Principal =
  | { kind: 'admin'; id: string; userId: string; email: string; appId: null }
  | { kind: 'api_key'; id: string; keyId: string; appId: string | null }
  // A customer's portal session (lib/portal): one app, and only the operations the portal offers.
  | { kind: 'portal'; id: string; sessionId: string; appId: string; readOnly: boolean };

export function isDeploymentWide(principal: Principal): boolean {
  return principal.appId === null;
}
