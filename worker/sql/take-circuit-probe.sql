-- Parameters: $1 endpointId, $2 probeMs.
-- Lets exactly one worker send the probe of an endpoint whose circuit has waited long enough: the
-- first to flip it to half_open wins; the others see no row and keep waiting. The probe holds the
-- circuit until $2 ms from now (the attempt deadline); if its worker dies, the next probe is due then.
UPDATE hookline.endpoints
   SET circuit_state = 'half_open',
       circuit_open_until = now() + make_interval(secs => $2::int / 1000.0),
       updated_at = now()
 WHERE id = $1
   AND circuit_state IN ('open', 'half_open')
   AND coalesce(circuit_open_until, '-infinity') <= now()
RETURNING id
