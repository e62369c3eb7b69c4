// The operations app's endpoints are the operator's Slack, PagerDuty or on-call webhooks, whose URLs
// are credentials (a Slack webhook's secret is its path): only who may manage operational endpoints
// reads them (lib/http/permissions.ts, assertMayCallOnOperationsApp). Issues and the overview's worst
// endpoints name endpoints of any app the caller sees, the operations app's too, and are read with
// `read` alone, as are the operational events (their data carries the endpoint's URL, and their
// summary quotes it): there its URLs show their origin alone to everyone else
// ("https://hooks.slack.com/…").
import { OPERATIONS_APP_ID } from '../domain/operational-events/operations-app';
import type { Principal } from '../domain/auth/principal';
import { holds } from './permissions';

/** The URL's scheme, host and port, with "/…" for what was left out; "…" when it does not parse. */
export function originOnly(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '…';
  }
}

export function withoutOperationalUrl<T extends { appId: string; endpointUrl: string | null }>(
  principal: Principal,
  issue: T,
): T {
  if (issue.appId !== OPERATIONS_APP_ID || issue.endpointUrl === null || holds(principal, 'operations.manage')) {
    return issue;
  }
  return { ...issue, endpointUrl: originOnly(issue.endpointUrl) };
}

export function withoutOperationalUrls<T extends { appId: string; url: string }>(
  principal: Principal,
  endpoints: T[],
): T[] {
  if (holds(principal, 'operations.manage')) return endpoints;
  return endpoints.map((endpoint) =>
    endpoint.appId === OPERATIONS_APP_ID ? { ...endpoint, url: originOnly(endpoint.url) } : endpoint,
  );
}

/** An operational event about an operations app endpoint, its URL cut to its origin in data.endpoint_url and summary. */
export function withoutOperationalUrlInEvent<T extends { appId: string; data: Record<string, unknown> }>(
  principal: Principal,
  event: T,
): T {
  const url = event.data.endpoint_url;
  if (event.appId !== OPERATIONS_APP_ID || typeof url !== 'string' || holds(principal, 'operations.manage')) {
    return event;
  }
  const shown = originOnly(url);
  const summary = event.data.summary;
  return {
    ...event,
    data: {
      ...event.data,
      endpoint_url: shown,
      ...(typeof summary === 'string' ? { summary: summary.replaceAll(url, shown) } : {}),
    },
  };
}
