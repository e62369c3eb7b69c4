'use client';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { appsQuery } from '@/lib/client/queries/apps';

/** Pages scoped to one app pick the first app when the URL names none, and say so in the URL. Not
 * `enabled` where the app is given (the customer portal, which has one and may not list apps). */
export function useDefaultApp(appId: string | undefined, setAppId: (appId: string) => void, enabled = true) {
  const apps = useQuery({ ...appsQuery(), enabled });
  const first = apps.data?.data[0]?.id;
  useEffect(() => {
    if (!appId && first) setAppId(first);
  }, [appId, first, setAppId]);
  return apps;
}
