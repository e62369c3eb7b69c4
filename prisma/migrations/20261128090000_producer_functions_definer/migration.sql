-- The producer-facing functions run with their owner's rights (SECURITY DEFINER), so a role that is not
-- Hookline's owner needs only USAGE on schema hookline to record events: before, it also needed SELECT
-- and INSERT on apps, event_types, endpoints and messages, which let it read every endpoint's URL and
-- custom headers. hookline.send and hookline.http_post state it in their files (prisma/functions/,
-- applied after the migrations); hookline.enqueue_http_request, behind hookline.http_get and
-- hookline.http_delete, is altered here, its only definition being a migration.
--
-- A fixed search_path (pg_catalog, then pg_temp last so a caller's temporary objects cannot shadow
-- anything) is what makes a SECURITY DEFINER function safe to call from any role: every Hookline
-- object in these bodies is schema-qualified, and the built-ins come from pg_catalog.
--
-- Inlining: a SECURITY DEFINER or SET function is never inlined, but these three are plpgsql, which
-- PostgreSQL never inlines anyway. hookline.http_get / http_delete stay LANGUAGE sql, invoker rights,
-- and are inlined into the caller as before (as are net.http_* over them); only the plpgsql call they
-- make switches role. What the role switch and the search_path set add per call is below the noise:
-- 20,000 calls of hookline.send in one statement took 58-98 us a call with SECURITY DEFINER and 68-89 us
-- without, three runs each, on a shared 2-core machine.
ALTER FUNCTION hookline.enqueue_http_request(text, text, jsonb, jsonb, jsonb, integer)
  SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
