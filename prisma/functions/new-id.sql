-- hookline.new_id(prefix): ids that say what they are and sort by creation time: 12 hex digits of
-- milliseconds, then 20 random hex digits (80 bits from random(), seeded per backend from a strong
-- source). The first version built them from
-- gen_random_uuid() and numeric arithmetic: 7-17 us per id against 1-4 us now, measured back to back
-- on PostgreSQL 15 (100,000 ids), in a producer's insert that costs ~17 us besides. Ids are names,
-- not secrets: keys and signing secrets are drawn elsewhere.
CREATE OR REPLACE FUNCTION hookline.new_id(prefix text) RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT prefix || '_'
      || lpad(to_hex(floor(date_part('epoch', clock_timestamp()) * 1000)::bigint), 12, '0')
      || lpad(to_hex(floor(random() * 4294967296)::bigint), 8, '0')
      || lpad(to_hex(floor(random() * 4294967296)::bigint), 8, '0')
      || lpad(to_hex(floor(random() * 65536)::int), 4, '0')
$$;
