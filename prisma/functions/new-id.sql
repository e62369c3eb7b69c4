-- hookline.new_id(prefix): ids that say what they are and sort by creation time: 12 hex digits of
-- milliseconds, then 20 random hex digits (80 bits from random(), seeded per backend from a strong
-- source). The first version built them from
-- gen_random_uuid() and numeric arithmetic: 7-17 us per id against 1-4 us now, measured back to back
-- on PostgreSQL 15 (100,000 ids), in a producer's insert that costs ~17 us besides. Ids are names,
-- not secrets: keys and signing secrets are drawn elsewhere.
-- Every name is qualified, as in hookline.send (prisma/functions/send.sql): a SQL function is inlined
-- into its caller's plan, its body parsed with the caller's search_path, and hookline.messages' id
-- default inlines it into hookline.send's insert, which runs with Hookline's owner's rights.
CREATE OR REPLACE FUNCTION hookline.new_id(prefix text) RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT prefix OPERATOR(pg_catalog.||) '_'
      OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.floor(
           pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000)::pg_catalog.int8), 12, '0')
      OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.floor(
           pg_catalog.random() OPERATOR(pg_catalog.*) 4294967296)::pg_catalog.int8), 8, '0')
      OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.floor(
           pg_catalog.random() OPERATOR(pg_catalog.*) 4294967296)::pg_catalog.int8), 8, '0')
      OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.floor(
           pg_catalog.random() OPERATOR(pg_catalog.*) 65536)::pg_catalog.int4), 4, '0')
$$;

-- hookline.new_id(prefix, sibling): an id of the same time as `sibling`, a public id (its 12 hex digits
-- of milliseconds), with new random digits. A delivery's id carries its message's time and an attempt's
-- its delivery's, so all three fall in the same time partition and retention drops them together
-- (migration 20261126130000_time_partitions; the partitions' CHECK constraints hold writers to it).
-- Since ids are stored as uuid, those are hookline.new_uuid(sibling) and new_id(prefix, sibling uuid)
-- below; a stored id given as text here would make a wrong one (its dashes taken as digits).
CREATE OR REPLACE FUNCTION hookline.new_id(prefix text, sibling text) RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT prefix OPERATOR(pg_catalog.||) '_'
      OPERATOR(pg_catalog.||) pg_catalog.substr(sibling, pg_catalog.strpos(sibling, '_') OPERATOR(pg_catalog.+) 1, 12)
      OPERATOR(pg_catalog.||) pg_catalog.substr(hookline.new_id(''), 14)
$$;

-- Messages and deliveries store their ids as uuid (migration 20261208090000_ids_as_uuid): the same
-- 32 hex digits as the public id ('msg_' or 'dlv_' and the digits), in 16 bytes instead of 37. Those two
-- tables are written once per event, and their ids fill three of their four indexes: as text they cost
-- ~149 B of WAL per event more (bench/experiments/ids-as-uuid-wal.sql, PostgreSQL 18 and 15). Every
-- other table, and everything a caller sees, keeps the public ids: hookline.public_id and
-- hookline.uuid_of turn one into the other, both ways, without a lookup. A uuid compares byte by byte,
-- so the digits' order is the ids' order, and the 12 hex digits of milliseconds that begin it keep its
-- time partition.

-- hookline.new_uuid(): a message's id, as hookline.new_id('msg') without its prefix.
CREATE OR REPLACE FUNCTION hookline.new_uuid() RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT pg_catalog.substr(hookline.new_id(''), 2)::pg_catalog.uuid
$$;

-- hookline.new_uuid(sibling): a delivery's id of its message's time (as hookline.new_id(prefix, sibling)).
CREATE OR REPLACE FUNCTION hookline.new_uuid(sibling uuid) RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT (pg_catalog.substr(pg_catalog.encode(pg_catalog.uuid_send(sibling), 'hex'), 1, 12)
      OPERATOR(pg_catalog.||) pg_catalog.substr(hookline.new_id(''), 14))::pg_catalog.uuid
$$;

-- hookline.new_id(prefix, sibling): an attempt's text id of its delivery's time.
CREATE OR REPLACE FUNCTION hookline.new_id(prefix text, sibling uuid) RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT prefix OPERATOR(pg_catalog.||) '_'
      OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.encode(pg_catalog.uuid_send(sibling), 'hex'), 1, 12)
      OPERATOR(pg_catalog.||) pg_catalog.substr(hookline.new_id(''), 14)
$$;

-- hookline.public_id(prefix, id): the id callers see, 'msg_' or 'dlv_' and the uuid's 32 hex digits.
CREATE OR REPLACE FUNCTION hookline.public_id(prefix text, id uuid) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT prefix OPERATOR(pg_catalog.||) '_' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.uuid_send(id), 'hex')
$$;

-- hookline.uuid_of(public_id): the stored id of a public one, its digits after the prefix, whatever
-- the prefix (a uuid's text, dashed or not, reads as itself): for reading the tables by hand. NULL for
-- text that is no id.
CREATE OR REPLACE FUNCTION hookline.uuid_of(public_id text) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- One expression, no FROM: a SQL function with a FROM clause is never inlined.
  SELECT CASE WHEN pg_catalog.replace(pg_catalog.substr(public_id, pg_catalog.strpos(public_id, '_') OPERATOR(pg_catalog.+) 1), '-', '')
                   OPERATOR(pg_catalog.~) '^[0-9a-f]{32}$'
              THEN pg_catalog.replace(pg_catalog.substr(public_id, pg_catalog.strpos(public_id, '_') OPERATOR(pg_catalog.+) 1), '-', '')::pg_catalog.uuid
         END
$$;

-- hookline.uuid_of(kind, public_id): the stored id of a public id of that kind ('msg', 'dlv'), NULL for
-- anything else (another kind's id, a bare uuid, a made-up one), exactly as lib/database/ids.ts's
-- storedId: what a job's filter and cursor, which hold the ids a caller gave, are read with, so the job
-- changes the rows its count (through storedId) counted. An id that names nothing matches no row, as
-- it did when ids were text.
CREATE OR REPLACE FUNCTION hookline.uuid_of(kind text, public_id text) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN pg_catalog.textregexeq(public_id, '^' OPERATOR(pg_catalog.||) kind OPERATOR(pg_catalog.||) '_[0-9a-f]{32}$')
              THEN pg_catalog.substr(public_id, pg_catalog.length(kind) OPERATOR(pg_catalog.+) 2)::pg_catalog.uuid END
$$;

-- hookline.delivery_id(message_id, endpoint_id): the id of the delivery a fan-out makes of a message
-- for an endpoint. Not drawn: a first attempt has no row until its outcome is written
-- (migration 20261206090000_first_attempts_written_once), and if its worker dies first, the release of
-- its batch's expired lease writes the row under the id that was sent, the webhook-id its receiver
-- deduplicates by. The message's 12 hex digits of milliseconds (its time partition, as
-- hookline.new_uuid(sibling)), then 80 bits of SHA-256 of the two public ids: the same digits as before
-- the ids were stored as uuid, so a first attempt sent before that migration is written under the id
-- it was sent with. Deliveries made otherwise (a replay, a backfill) keep drawn ids: a message may have
-- several for one endpoint.
-- STABLE, as textsend is: declared IMMUTABLE it was not inlined, and ran as a statement of its own for
-- every delivery a fan-out made (20,704 calls of ~5 us in a 20k drain on PostgreSQL 15).
CREATE OR REPLACE FUNCTION hookline.delivery_id(message_id uuid, endpoint_id text) RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT (pg_catalog.substr(pg_catalog.encode(pg_catalog.uuid_send(message_id), 'hex'), 1, 12)
      OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.encode(pg_catalog.sha256(pg_catalog.textsend(
           hookline.public_id('msg', message_id) OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) endpoint_id)), 'hex'), 1, 20)
      )::pg_catalog.uuid
$$;
