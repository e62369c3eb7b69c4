/** A POSIX shell word: single-quoted, with each ' written as '\'' — nothing inside is expanded. */
function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The curl command that repeats one attempt's request: the same URL, every header it sent (the
 * webhook-id, webhook-timestamp and webhook-signature included) and the exact body bytes. A receiver
 * that checks the timestamp (Standard Webhooks allows 5 minutes) rejects an old one, which is itself
 * a useful check of its verification.
 */
export function curlCommand({
  method = 'POST',
  url,
  headers,
  body,
}: {
  /** POST unless the endpoint is hookline.http_get's or hookline.http_delete's. */
  method?: string;
  url: string;
  headers: Record<string, unknown>;
  /** Empty: the request had no body (a GET, or a DELETE without one). */
  body: string;
}): string {
  const lines = [`curl -sS -X ${method} ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(headers)) {
    lines.push(`-H ${shellQuote(`${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)}`);
  }
  if (body !== '') lines.push(`--data-binary ${shellQuote(body)}`);
  return lines.join(' \\\n  ');
}
