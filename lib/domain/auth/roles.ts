// What each role may do, as permissions. lib/http/permissions.ts names the permission every operation
// and page needs; this is the other half of that table: which roles hold which permission.
// Owner is a superset of admin (someone must be able to do everything, and the first member is an owner);
// a developer builds integrations (apps, endpoints, event types, test sends, replays) within the apps it
// is held to; a viewer reads and changes nothing, not even to see a signing secret.
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  // Every read of the API and every page that only shows (signing secrets excepted).
  'read',
  // Create and delete apps (a developer configures the apps it has, it does not add or remove them).
  'apps.manage',
  // Change an app's settings, its event types and endpoints, read signing secrets, send test and real
  // messages, open customer portal sessions.
  'integrations.write',
  // Replay, recover, backfill and cancel deliveries and jobs.
  'deliveries.replay',
  // API keys, operational endpoints, alert rules and issues: running the deployment.
  'operations.manage',
  // Members, invitations and roles.
  'members.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: ['read', 'apps.manage', 'integrations.write', 'deliveries.replay', 'operations.manage'],
  developer: ['read', 'integrations.write', 'deliveries.replay'],
  viewer: ['read'],
};

export function roleHas(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
