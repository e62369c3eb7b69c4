-- Producers wake sleeping workers themselves (issue 22): hookline.send checks hookline.polling_workers
-- inline, hookline.http_post, hookline.enqueue_http_request and hookline.emit_operational_event through
-- hookline.wake_sleeping_workers() (prisma/functions/, applied right after this migration in the same
-- run). As a statement trigger on hookline.messages the check cost producers ~9 points of their TPS,
-- the check in hookline.send ~5 (prisma/functions/notify-deliveries.sql has the numbers). Between this
-- migration's commit and the functions' (milliseconds), a message written wakes nobody: a sleeping
-- worker finds it at its next poll (HOOKLINE_POLL_INTERVAL_MS).
DROP TRIGGER messages_notify ON hookline.messages;
