'use client';
import { createContext, useContext, type ReactNode } from 'react';

// Who is looking at a page: the operator (the admin dashboard, every app) or a customer (the portal,
// one app, through a portal session). The dashboard's components serve both; each asks this instead of
// existing twice, so a fix lands in both. The portal's layout (app/portal/layout.tsx) provides the
// customer's session, read on the server from the portal cookie; without a provider it is the operator.
// The API checks the session again on every call, so this only decides what a page offers and says.

export interface PortalBrandingValue {
  name: string | null;
  logoUrl: string | null;
  accentColor: string | null;
}

export interface CustomerViewer {
  kind: 'customer';
  appId: string;
  appName: string;
  readOnly: boolean;
  expiresAt: string;
  branding: PortalBrandingValue;
}

export type Viewer = { kind: 'operator' } | CustomerViewer;

const OPERATOR: Viewer = { kind: 'operator' };
const ViewerContext = createContext<Viewer>(OPERATOR);

export function ViewerProvider({ value, children }: { value: Viewer; children: ReactNode }) {
  return <ViewerContext.Provider value={value}>{children}</ViewerContext.Provider>;
}

export function useViewer(): Viewer {
  return useContext(ViewerContext);
}

/** The portal session of the page; only for components that exist in the portal alone (its shell). */
export function useCustomer(): CustomerViewer {
  const viewer = useViewer();
  if (viewer.kind !== 'customer') throw new Error('useCustomer outside the portal layout');
  return viewer;
}

/** Whether the page may offer changes: always for the operator, not for a read-only portal session. */
export function canChange(viewer: Viewer): boolean {
  return viewer.kind === 'operator' || !viewer.readOnly;
}

const id = encodeURIComponent;

/** Where a page links to, for whoever is looking: the dashboard's routes, or the portal's. */
export function viewerPaths(viewer: Viewer, appId: string) {
  if (viewer.kind === 'customer') {
    return {
      endpoints: '/portal',
      endpoint: (endpointId: string) => `/portal/endpoints/${id(endpointId)}`,
      delivery: (deliveryId: string) => `/portal/deliveries/${id(deliveryId)}`,
      deliveries: (endpointId?: string) =>
        endpointId ? `/portal/deliveries?endpointId=${id(endpointId)}` : '/portal/deliveries',
      /** The portal has no message pages: a delivery shows its message's payload itself. */
      message: null,
    };
  }
  return {
    endpoints: `/apps/${id(appId)}/endpoints`,
    endpoint: (endpointId: string) => `/apps/${id(appId)}/endpoints/${id(endpointId)}`,
    delivery: (deliveryId: string) => `/apps/${id(appId)}/deliveries/${id(deliveryId)}`,
    deliveries: (endpointId?: string) =>
      `/deliveries?appId=${id(appId)}${endpointId ? `&endpointId=${id(endpointId)}` : ''}`,
    message: (messageId: string) => `/apps/${id(appId)}/messages/${id(messageId)}`,
  };
}
