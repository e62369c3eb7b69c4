-- Tracing (issue 24, item 5): the W3C trace context a REST send arrived with (its `traceparent` and
-- `tracestate` headers), so each attempt span the worker writes, maybe days later, can link to the
-- producer's trace. NULL for every message sent without one, which is every hookline.send from SQL.
--
-- Nullable columns without defaults on the partitioned parent: PostgreSQL adds them to every partition
-- as a catalog change, rewriting no rows, and an insert that leaves them NULL writes one bit each in
-- the row's null bitmap (already present: idempotency_key and request_id are nullable), so the
-- producer's hot insert costs what it did. No CHECK on the format either, for the same reason: the API
-- stores only a traceparent it validated (lib/domain/messages/trace-context.ts), and the worker parses
-- it again and ignores one it cannot read.
ALTER TABLE hookline.messages
  ADD COLUMN traceparent text,
  ADD COLUMN tracestate text;
