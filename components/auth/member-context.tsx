'use client';
// The signed-in member, as the dashboard layout read it on the server, for showing only the actions the
// role allows. Hiding is a courtesy: every route checks the role again (lib/http/permissions.ts), so a
// hidden button and a refused request always agree.
import { createContext, useContext, type ReactNode } from 'react';
import { roleHas, type Permission, type Role } from '@/lib/domain/auth/roles';

export interface SignedInMember {
  email: string;
  role: Role;
  /** The apps the role is held to; empty: every app. */
  appIds: string[];
}

const MemberContext = createContext<SignedInMember | null>(null);

export function MemberProvider({ member, children }: { member: SignedInMember; children: ReactNode }) {
  return <MemberContext.Provider value={member}>{children}</MemberContext.Provider>;
}

export function useMember(): SignedInMember | null {
  return useContext(MemberContext);
}

/**
 * Whether the member may do what needs `permission`. Outside the dashboard (the customer portal, which
 * reuses these components) there is no member: the portal's own session decides there, so this says yes.
 */
export function useCan(permission: Permission): boolean {
  const member = useContext(MemberContext);
  return member === null || roleHas(member.role, permission);
}
