// What makes a list a payload search, without zod: the dashboard's and portal's pages import this,
// and a zod object schema in a browser bundle probes `new Function` at load, which the pages'
// Content-Security-Policy (no 'unsafe-eval') reports as a violation. The schemas are in
// ./schemas/payload-search.ts.

export const PAYLOAD_MATCHES = ['equals', 'contains'] as const;
export type PayloadMatch = (typeof PAYLOAD_MATCHES)[number];

export interface PayloadSearchParams {
  search?: string;
  payloadPath?: string;
  payloadValue?: string;
  payloadMatch?: PayloadMatch;
}

/** Whether these parameters make the list a payload search. */
export const isPayloadSearch = (params: PayloadSearchParams) =>
  params.search !== undefined || params.payloadPath !== undefined;
