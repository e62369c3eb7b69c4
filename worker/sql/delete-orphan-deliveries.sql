-- Parameters: $1 workerId, $2 deliveryIds.
-- Deletes deliveries leased to worker $1 whose endpoint no longer exists: the endpoint was deleted
-- (with its deliveries) while their message was being fanned out, so the fan-out wrote them after the
-- delete. Without this they would be claimed again at every lease expiry, forever.
DELETE FROM hookline.deliveries AS d
 WHERE d.id = ANY ($2::uuid[])
   AND d.lease_owner = $1
   AND NOT EXISTS (SELECT 1 FROM hookline.endpoints AS e WHERE e.id = d.endpoint_id)
