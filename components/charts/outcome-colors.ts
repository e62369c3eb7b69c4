// One colour per error class and per status code, the same in every chart, table and badge: an
// operator who learned "timeout is purple" on the overview finds it purple on an endpoint's page and
// in the deliveries explorer. Colours are fixed by name, never by rank, so a class keeps its colour
// when the ranking changes between two refreshes.
import type { ErrorClassName } from '@/lib/domain/deliveries/error-classes';

export const ERROR_CLASS_COLORS: Record<ErrorClassName, string> = {
  timeout: '#7c3aed',
  connect_refused: '#0891b2',
  connection_reset: '#0e7490',
  empty_reply: '#db2777',
  dns: '#65a30d',
  tls: '#4f46e5',
  blocked_address: '#52525b',
  invalid_url: '#78716c',
  invalid_header: '#57534e',
  http_3xx: '#2563eb',
  http_4xx: '#d97706',
  http_5xx: '#dc2626',
  network: '#c026d3',
  unknown: '#a1a1aa',
};

const OTHER = '#a1a1aa';

export function errorClassColor(errorClass: string): string {
  return ERROR_CLASS_COLORS[errorClass as ErrorClassName] ?? OTHER;
}

// The codes receivers answer most, each its own shade within its family (2xx green, 3xx blue, 4xx
// amber to orange, 5xx reds); any other code takes its family's base colour.
const STATUS_COLORS: Record<number, string> = {
  200: '#16a34a',
  201: '#22c55e',
  202: '#4ade80',
  204: '#15803d',
  400: '#d97706',
  401: '#b45309',
  403: '#92400e',
  404: '#f59e0b',
  408: '#ea580c',
  409: '#fbbf24',
  410: '#a16207',
  422: '#ca8a04',
  429: '#f97316',
  500: '#dc2626',
  502: '#f87171',
  503: '#991b1b',
  504: '#e11d48',
};
const FAMILY_COLORS: Record<string, string> = { '1': OTHER, '2': '#16a34a', '3': '#2563eb', '4': '#d97706', '5': '#dc2626' };

export function statusCodeColor(code: number | string): string {
  const number = Number(code);
  return STATUS_COLORS[number] ?? FAMILY_COLORS[String(code)[0] ?? ''] ?? OTHER;
}
