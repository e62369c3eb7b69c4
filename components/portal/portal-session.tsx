'use client';
import { createContext, useContext, type ReactNode } from 'react';

// What every portal page needs from the session: the one app it shows, and whether it may change it.
// Read on the server from the portal cookie (app/portal/layout.tsx); the API checks both again on
// every call, so this only decides what the pages offer.
export interface PortalSessionValue {
  appId: string;
  appName: string;
  readOnly: boolean;
  expiresAt: string;
}

const PortalSessionContext = createContext<PortalSessionValue | null>(null);

export function PortalSessionProvider({ value, children }: { value: PortalSessionValue; children: ReactNode }) {
  return <PortalSessionContext.Provider value={value}>{children}</PortalSessionContext.Provider>;
}

export function usePortalSession(): PortalSessionValue {
  const value = useContext(PortalSessionContext);
  if (!value) throw new Error('usePortalSession outside the portal layout');
  return value;
}
