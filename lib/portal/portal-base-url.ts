import { getApiSettings } from '../api/api-settings';
import { loadConfig } from '../env';

/**
 * The origin to put in portal URLs: HOOKLINE_PUBLIC_URL when set (the operator's backend may call an
 * internal address customers cannot reach), else the origin the creating request came to, as the
 * proxy in front says when HOOKLINE_TRUST_PROXY is on.
 */
export function portalBaseUrl(request: Request): string {
  const configured = loadConfig().HOOKLINE_PUBLIC_URL;
  if (configured) return configured;
  const url = new URL(request.url);
  if (getApiSettings().trustProxy) {
    const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
    const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
    if (host) return `${proto || url.protocol.slice(0, -1)}://${host}`;
  }
  return url.origin;
}
