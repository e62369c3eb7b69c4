import { traceContextOf, type TraceContext } from '../domain/messages/trace-context';

/** The request's W3C traceparent and tracestate headers, when the traceparent is valid; null otherwise. */
export function traceContextOfRequest(request: Request): TraceContext | null {
  return traceContextOf(request.headers.get('traceparent'), request.headers.get('tracestate'));
}
