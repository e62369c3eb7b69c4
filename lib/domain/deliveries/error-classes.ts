// Every error class an attempt can be recorded with: the worker's classifier (worker/classify-error.ts,
// kept equal to this list by test/lib/deliveries/error-classes.test.ts) and 'unknown', which migration
// 20261124110000_hot_first_attempts gave dead rows recorded without one. The REST filters take exactly
// these (a typo is a 400 naming the values, not an empty list), and the dashboard offers them as a
// choice. No imports: browser components import this module too.
export const ERROR_CLASSES = [
  'timeout',
  'connect_refused',
  'connection_reset',
  'empty_reply',
  'dns',
  'tls',
  'blocked_address',
  'invalid_url',
  'invalid_header',
  'http_3xx',
  'http_4xx',
  'http_5xx',
  'network',
  'unknown',
] as const;

export type ErrorClassName = (typeof ERROR_CLASSES)[number];

export const ERROR_CLASS_INFO: Record<ErrorClassName, string> = {
  timeout: 'No complete response within the timeout',
  connect_refused: 'The connection was refused',
  connection_reset: 'The connection was reset',
  empty_reply: 'The connection closed without a response',
  dns: 'The host name did not resolve',
  tls: 'The TLS handshake or certificate failed',
  blocked_address: 'The address is in a range Hookline refuses',
  invalid_url: 'The URL could not be sent to',
  invalid_header: 'A custom header could not be sent',
  http_3xx: 'A redirect (not followed)',
  http_4xx: 'A 4xx response',
  http_5xx: 'A 5xx response',
  network: 'Another network error',
  unknown: 'Recorded before error classes were kept',
};
