-- What storing the hot ids as uuid would save in WAL (issue 22: <= 1,000 B of WAL per event).
-- Two copies of a message row and its delivery row, shaped as hookline.messages and
-- hookline.deliveries are (their columns, their keys and indexes, a drain's bench payload and a
-- first attempt's success), one with the public text ids as stored today ('msg_' and 32 hex digits,
-- COLLATE "C"), one with messages.id, deliveries.id and deliveries.message_id as uuid (the same 32 hex
-- digits: the public id would be its prefix and the uuid's digits, both ways without a lookup).
-- 100,000 of each, inserted the way the bench's drain writes them, WAL measured around each.
-- Run on a scratch database: psql <url> -f bench/experiments/ids-as-uuid-wal.sql
-- It leaves four tables (mt, dt, mu, du) behind; DROP them after.
DROP TABLE IF EXISTS mt, dt, mu, du;
CREATE TABLE mt (id text COLLATE "C" NOT NULL, app_id text COLLATE "C" NOT NULL, event_type text NOT NULL, payload jsonb NOT NULL, idempotency_key text, created_at timestamptz NOT NULL DEFAULT now(), request_id bigint, target_endpoint_id text, traceparent text, tracestate text, written_by xid8, PRIMARY KEY (app_id, id));
CREATE INDEX ON mt (written_by, id);
CREATE TABLE dt (id text COLLATE "C" PRIMARY KEY, app_id text COLLATE "C" NOT NULL, message_id text COLLATE "C" NOT NULL, endpoint_id text COLLATE "C" NOT NULL, event_type text NOT NULL, state text NOT NULL, attempt_count int NOT NULL, next_attempt_at timestamptz NOT NULL, lease_owner text, lease_expires_at timestamptz, last_attempt_at timestamptz, last_status_code int, last_error_class text, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, last_duration_ms float8, claimable_at timestamptz);
CREATE INDEX ON dt (endpoint_id, created_at DESC);
CREATE TABLE mu (id uuid NOT NULL, app_id text COLLATE "C" NOT NULL, event_type text NOT NULL, payload jsonb NOT NULL, idempotency_key text, created_at timestamptz NOT NULL DEFAULT now(), request_id bigint, target_endpoint_id text, traceparent text, tracestate text, written_by xid8, PRIMARY KEY (app_id, id));
CREATE INDEX ON mu (written_by, id);
CREATE TABLE du (id uuid PRIMARY KEY, app_id text COLLATE "C" NOT NULL, message_id uuid NOT NULL, endpoint_id text COLLATE "C" NOT NULL, event_type text NOT NULL, state text NOT NULL, attempt_count int NOT NULL, next_attempt_at timestamptz NOT NULL, lease_owner text, lease_expires_at timestamptz, last_attempt_at timestamptz, last_status_code int, last_error_class text, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, last_duration_ms float8, claimable_at timestamptz);
CREATE INDEX ON du (endpoint_id, created_at DESC);
-- Ids of the same shape as hookline.new_id's: 12 hex digits of milliseconds, then 20 more.
CREATE TEMP TABLE ids AS SELECT g, lpad(to_hex((extract(epoch from clock_timestamp())*1000)::bigint + g/10), 12, '0') || md5(g::text)::text AS h FROM generate_series(1, 100000) g;
CREATE TEMP TABLE w (name text, lsn pg_lsn);
CHECKPOINT;
INSERT INTO w VALUES ('t0', pg_current_wal_insert_lsn());
INSERT INTO mt (id, app_id, event_type, payload, written_by) SELECT 'msg_' || substr(h,1,32), 'app_0123456789abcdef0123456789abcdef', 'bench.e0', jsonb_build_object('id', g, 'planet', 'Arrakis', 'tonnes', g % 1000, 'harvested_at', now()), pg_current_xact_id() FROM ids ORDER BY g;
INSERT INTO dt SELECT 'dlv_' || substr(h,1,12) || substr(md5(h),1,20), 'app_0123456789abcdef0123456789abcdef', 'msg_' || substr(h,1,32), 'ep_0123456789abcdef0123456789abcdef', 'bench.e0', 'succeeded', 1, now(), NULL, NULL, now(), 200, NULL, now(), now(), 1.5, NULL FROM ids ORDER BY g;
INSERT INTO w VALUES ('t1', pg_current_wal_insert_lsn());
CHECKPOINT;
INSERT INTO w VALUES ('u0', pg_current_wal_insert_lsn());
INSERT INTO mu (id, app_id, event_type, payload, written_by) SELECT substr(h,1,32)::uuid, 'app_0123456789abcdef0123456789abcdef', 'bench.e0', jsonb_build_object('id', g, 'planet', 'Arrakis', 'tonnes', g % 1000, 'harvested_at', now()), pg_current_xact_id() FROM ids ORDER BY g;
INSERT INTO du SELECT (substr(h,1,12) || substr(md5(h),1,20))::uuid, 'app_0123456789abcdef0123456789abcdef', substr(h,1,32)::uuid, 'ep_0123456789abcdef0123456789abcdef', 'bench.e0', 'succeeded', 1, now(), NULL, NULL, now(), 200, NULL, now(), now(), 1.5, NULL FROM ids ORDER BY g;
INSERT INTO w VALUES ('u1', pg_current_wal_insert_lsn());
SELECT round(((SELECT lsn FROM w WHERE name = 't1') - (SELECT lsn FROM w WHERE name = 't0')) / 100000) AS text_ids_wal_bytes_per_event,
       round(((SELECT lsn FROM w WHERE name = 'u1') - (SELECT lsn FROM w WHERE name = 'u0')) / 100000) AS uuid_ids_wal_bytes_per_event;
