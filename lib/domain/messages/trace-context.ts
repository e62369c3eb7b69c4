// The W3C Trace Context (https://www.w3.org/TR/trace-context/) a producer may send with a message: its
// `traceparent` and `tracestate`. Read here without OpenTelemetry, so the REST send and the worker pay
// for no SDK when tracing is off.

export interface TraceContext {
  /** Normalised to version 00: `00-<32 hex trace id>-<16 hex parent span id>-<2 hex flags>`. */
  traceparent: string;
  tracestate: string | null;
}

export interface ParsedTraceparent {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZEROS = /^0+$/;
// The specification's limit for a tracestate a platform must propagate: 512 characters; beyond, it
// may be dropped, and is, rather than stored cut in the middle of an entry.
const TRACESTATE_MAX_LENGTH = 512;
// list-members: key=value, printable ASCII without ',' and '=' in values; checked loosely (printable
// ASCII, no control characters), since the value is only passed on, never interpreted.
const TRACESTATE = /^[\x20-\x7e]*$/;

/**
 * A traceparent as the specification reads it, or null: unknown version ff, an all-zero trace or span
 * id, upper-case hex, or version 00 with anything after the flags. A later version may append fields,
 * which are ignored, as the specification asks of a version-00 reader.
 */
export function parseTraceparent(value: string | null | undefined): ParsedTraceparent | null {
  if (!value) return null;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (ALL_ZEROS.test(traceId) || ALL_ZEROS.test(spanId)) return null;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) };
}

/**
 * The trace context to keep with a message, or null. A malformed traceparent is ignored, not refused:
 * what OpenTelemetry's propagators do, so a producer with a broken tracer still gets its event sent. A
 * tracestate without a valid traceparent means nothing and is dropped, as is one over 512 characters.
 */
export function traceContextOf(traceparent: string | null, tracestate: string | null): TraceContext | null {
  const parsed = parseTraceparent(traceparent);
  if (!parsed) return null;
  const state = tracestate?.trim() ?? '';
  const flags = parsed.traceFlags.toString(16).padStart(2, '0');
  return {
    traceparent: `00-${parsed.traceId}-${parsed.spanId}-${flags}`,
    tracestate: state !== '' && state.length <= TRACESTATE_MAX_LENGTH && TRACESTATE.test(state) ? state : null,
  };
}
