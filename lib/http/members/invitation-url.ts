import { portalBaseUrl } from '../portal/portal-base-url';

/**
 * The link an invited person opens. The token rides in the fragment, which browsers never send to a
 * server, so it stays out of access logs, proxies and Referer headers; the page reads it in the browser.
 */
export function invitationUrl(request: Request, token: string): string {
  return `${portalBaseUrl(request)}/invite#${token}`;
}
