// Who is calling. An admin session and a deployment-wide key see every app; an app-limited key sees
// only its app (everything else answers 404, as if it did not exist).
export type Principal =
  | { kind: 'admin'; id: string; userId: string; email: string; appId: null }
  | { kind: 'api_key'; id: string; keyId: string; appId: string | null };

export function isDeploymentWide(principal: Principal): boolean {
  return principal.appId === null;
}
