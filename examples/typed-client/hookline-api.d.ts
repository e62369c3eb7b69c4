// Generated from /api/v1/openapi.json by `npm run generate:api-types`; do not edit.
export interface paths {
    "/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List apps (an app-limited key sees only its own) */
        get: operations["listApps"];
        put?: never;
        /** Create an app */
        post: operations["createApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an app */
        get: operations["getApp"];
        put?: never;
        post?: never;
        /** Delete an app and everything it owns */
        delete: operations["deleteApp"];
        options?: never;
        head?: never;
        /** Rename an app, change its endpoints' default retry schedule and timeout, or set the origins allowed to embed its customer portal */
        patch: operations["updateApp"];
        trace?: never;
    };
    "/apps/{appId}/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List event types */
        get: operations["listEventTypes"];
        put?: never;
        /** Create an event type */
        post: operations["createEventType"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/event-types/{eventTypeName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an event type by name */
        get: operations["getEventType"];
        put?: never;
        post?: never;
        /** Delete an event type (recorded messages keep its name) */
        delete: operations["deleteEventType"];
        options?: never;
        head?: never;
        /** Change the description, schema or archived flag of an event type */
        patch: operations["updateEventType"];
        trace?: never;
    };
    "/apps/{appId}/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List endpoints with their health */
        get: operations["listEndpoints"];
        put?: never;
        /** Create an endpoint; the response holds its signing secret */
        post: operations["createEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an endpoint with its health */
        get: operations["getEndpoint"];
        put?: never;
        post?: never;
        /** Delete an endpoint with its deliveries */
        delete: operations["deleteEndpoint"];
        options?: never;
        head?: never;
        /** Change an endpoint */
        patch: operations["updateEndpoint"];
        trace?: never;
    };
    "/apps/{appId}/endpoints/{endpointId}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable an endpoint (closes its circuit) */
        post: operations["enableEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/endpoints/{endpointId}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable an endpoint: new messages are no longer fanned out to it */
        post: operations["disableEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/endpoints/{endpointId}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signing secrets in use (two during a rotation) */
        get: operations["getEndpointSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/endpoints/{endpointId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a new signing secret; the old one keeps signing for the grace period */
        post: operations["rotateEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test event to this endpoint only */
        post: operations["sendTestMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/endpoints/{endpointId}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay every failed delivery of the endpoint created since a time (dryRun counts them)
         * @description Without dryRun, answers {job}: a background job replays them (GET /apps/{appId}/jobs/{jobId}).
         */
        post: operations["recoverEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List messages, newest first, each with its deliveries counted by state
         * @description With search or payloadPath, a payload search over any range, and likewise with eventType, statusCode, errorClass or minAttempts (no index serves them): it walks back through time for at most HOOKLINE_SEARCH_BUDGET_MS (default 1.5 s) and answers the matches found, searchedBackTo, and a nextCursor that goes on from there (null once the range is searched). A page may hold fewer than limit matches.
         */
        get: operations["listMessages"];
        put?: never;
        /**
         * Send a message to every subscribed endpoint (the REST way in, through hookline.send)
         * @description With an Idempotency-Key, repeating the request returns the first message and records nothing new; the same key with another event type or payload answers 409.
         */
        post: operations["createMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a message with its deliveries */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/messages/{messageId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message again to all its endpoints */
        post: operations["replayMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deliveries, newest first
         * @description With search or payloadPath, the deliveries whose message's payload matches, over any range, newest message first (from and to then bound the message time): the search walks back through time for at most HOOKLINE_SEARCH_BUDGET_MS (default 1.5 s) and answers the matches found, searchedBackTo, and a nextCursor that goes on from there (null once the range is searched). A page may hold fewer than limit matches. eventType, errorClass, statusCode, attemptCount and minAttempts, which no index serves, walk back the same way unless id, messageId or idempotencyKey narrows the list first.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a delivery with its attempts and message
         * @description A first attempt being sent now has no row until its outcome is written; it is shown as the row it will be: delivering, attemptCount 0, no attempts.
         */
        get: operations["getDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/deliveries/{deliveryId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again (back to pending, due now) */
        post: operations["replayDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/deliveries/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a selection of deliveries, or every delivery matching a filter (dryRun counts them)
         * @description deliveryIds are replayed now ({replayed}); a filter starts a background job ({job}) whose total is the dry run's count.
         */
        post: operations["replayDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/deliveries/{deliveryId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending or in-flight delivery
         * @description A retry in flight is cancelled and its outcome not recorded. A first attempt in flight (attemptCount 0) answers 409 delivery_in_flight until its outcome is written.
         */
        post: operations["cancelDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/endpoints/{endpointId}/backfill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the endpoint every message since a time that it has no delivery for (dryRun counts them)
         * @description Messages of its event types created since `since`, oldest first by id (the time each was written), at the endpoint's own pace; without dryRun, answers {job}.
         */
        post: operations["backfillEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List background jobs (replay, recover, backfill) with their progress and outcome, newest first */
        get: operations["listJobs"];
        put?: never;
        /**
         * Start a background job: replay a filter, recover an endpoint, or backfill an endpoint
         * @description The job is counted (total) and queued; workers run it in batches. Poll it for progress.
         */
        post: operations["createJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/jobs/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a job with its progress (processed of total) */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/jobs/{jobId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a queued or running job; what it already did stays done */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/portal-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the app's portal sessions, newest first (never their tokens) */
        get: operations["listPortalSessions"];
        put?: never;
        /**
         * Create a link to the app's customer portal; the response holds its URL, once
         * @description The URL opens a portal showing this app only: its endpoints, event types and deliveries. It works until expiresInSeconds have passed or the session is revoked. Embed it in an iframe on an origin listed in the app's portalFrameAncestors.
         */
        post: operations["createPortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/portal-sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a portal session (effective immediately) */
        delete: operations["revokePortalSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Queue depth, throughput, success rate, latency percentiles and error breakdowns */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/endpoints/{endpointId}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One endpoint's attempts, success rate and latency percentiles over a range (the last hour by default) */
        get: operations["getEndpointStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys (never the keys themselves) */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key; the key is in this response only */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key (effective immediately) */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operational-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the endpoints that receive operational events */
        get: operations["listOperationalEndpoints"];
        put?: never;
        /**
         * Subscribe an endpoint to operational events, deployment-wide or for one app; the response holds its signing secret
         * @description The endpoint belongs to the internal operations app (app_hookline_ops), so its secret can be rotated, a test event sent and its deliveries read through the /apps/app_hookline_ops/endpoints routes.
         */
        post: operations["createOperationalEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operational-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an operational endpoint */
        get: operations["getOperationalEndpoint"];
        put?: never;
        post?: never;
        /** Delete an operational endpoint */
        delete: operations["deleteOperationalEndpoint"];
        options?: never;
        head?: never;
        /** Change an operational endpoint (URL, event types, scope, payload template) */
        patch: operations["updateOperationalEndpoint"];
        trace?: never;
    };
    "/operational-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The operational event log, newest first (an app-limited key sees its own app)
         * @description audit.sensitive_change events (who made a sensitive change, from where and why) are listed only to a role that may read the audit log (operations.manage); others get the log without them.
         */
        get: operations["listOperationalEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Issues (one per endpoint and error class, or per alert rule), most recently seen first */
        get: operations["listIssues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issues/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Issues per status (the dashboard nav shows the open count) */
        get: operations["countIssues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issues/{issueId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An issue with its affected deliveries and events */
        get: operations["getIssue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issues/{issueId}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Acknowledge an open issue */
        post: operations["acknowledgeIssue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issues/{issueId}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve an issue (sends issue.resolved); it reopens when the same thing happens again */
        post: operations["resolveIssue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issues/{issueId}/reopen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reopen a resolved or acknowledged issue (sends issue.reopened if its resolve was sent) */
        post: operations["reopenIssue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issues/{issueId}/mute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send no notification about an issue for a while (a change meanwhile is sent when the mute ends) */
        post: operations["muteIssue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/issues/{issueId}/unmute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a mute now */
        post: operations["unmuteIssue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/alert-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an app's alert rules with their state, newest first */
        get: operations["listAlertRules"];
        put?: never;
        /** Create an alert rule; each firing is an operational event and an issue */
        post: operations["createAlertRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{appId}/alert-rules/{ruleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an alert rule */
        delete: operations["deleteAlertRule"];
        options?: never;
        head?: never;
        /** Change an alert rule */
        patch: operations["updateAlertRule"];
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the members and their roles */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/members/{memberId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member; its sessions end at once, the API keys it created stay */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /**
         * Change a member's role or the apps it is held to
         * @description The last owner cannot stop being one (409 last_owner).
         */
        patch: operations["updateMember"];
        trace?: never;
    };
    "/members/{memberId}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A member's live sessions */
        get: operations["listMemberSessions"];
        put?: never;
        post?: never;
        /** End every session of a member (it must sign in again) */
        delete: operations["revokeMemberSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invitations not yet accepted, revoked or expired (never their links) */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite someone by link; the link is in this response only
         * @description The link works once, until HOOKLINE_INVITATION_TTL (default 72 h) has passed.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an invitation; its link stops working at once */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log, newest first: every change, who made it and from where (an app-limited key sees its own app) */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "endpoint.disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event endpoint.disabled
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_endpoint_disabled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "endpoint.enabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event endpoint.enabled
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_endpoint_enabled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "endpoint.circuit_opened": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event endpoint.circuit_opened
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_endpoint_circuit_opened"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "endpoint.circuit_closed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event endpoint.circuit_closed
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_endpoint_circuit_closed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "endpoint.failing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event endpoint.failing
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_endpoint_failing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "endpoint.recovered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event endpoint.recovered
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_endpoint_recovered"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "delivery.dead": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event delivery.dead
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_delivery_dead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "alert.fired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event alert.fired
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_alert_fired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "alert.resolved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event alert.resolved
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_alert_resolved"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.finished": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event job.finished
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_job_finished"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "issue.reminder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event issue.reminder
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_issue_reminder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "issue.reopened": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event issue.reopened
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_issue_reopened"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "issue.resolved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event issue.resolved
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_issue_resolved"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "audit.sensitive_change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operational event audit.sensitive_change
         * @description Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) by the operational endpoint's secret, retried like every delivery.
         */
        post: operations["operationalEvent_audit_sensitive_change"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        AlertFiredEvent: {
            /** @constant */
            type: "alert.fired";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                alert_rule_id: string;
                /** @enum {string} */
                kind: "success_rate_below" | "oldest_waiting_above" | "dead_per_hour_above";
                threshold: number;
                window_minutes: number;
                /** @description The measured value: percent, seconds or deliveries per hour */
                value: number | null;
                /** @description The rule in words, e.g. "success rate below 95 % over 15 min" */
                condition: string;
                description: string;
            };
        };
        AlertResolvedEvent: {
            /** @constant */
            type: "alert.resolved";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                alert_rule_id: string;
                /** @enum {string} */
                kind: "success_rate_below" | "oldest_waiting_above" | "dead_per_hour_above";
                threshold: number;
                window_minutes: number;
                /** @description The measured value: percent, seconds or deliveries per hour */
                value: number | null;
                /** @description The rule in words, e.g. "success rate below 95 % over 15 min" */
                condition: string;
                description: string;
            };
        };
        AlertRule: {
            id: string;
            appId: string;
            /**
             * @description success_rate_below: threshold in percent over windowMinutes; oldest_waiting_above: threshold in seconds; dead_per_hour_above: threshold in dead deliveries over the last hour
             * @enum {string}
             */
            kind: "success_rate_below" | "oldest_waiting_above" | "dead_per_hour_above";
            threshold: number;
            windowMinutes: number;
            description: string;
            enabled: boolean;
            firing: boolean;
            lastValue: number | null;
            lastEvaluatedAt: string | null;
            firedAt: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
        };
        AlertRulePage: {
            data: components["schemas"]["AlertRule"][];
            nextCursor: string | null;
        };
        ApiKey: {
            id: string;
            name: string;
            appId: string | null;
            /** @description The first characters of the key, to recognise it */
            prefix: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
            /** @description The member who created the key; null when a key or npm start did */
            createdBy: string | null;
        };
        ApiKeyPage: {
            data: components["schemas"]["ApiKey"][];
            nextCursor: string | null;
        };
        App: {
            id: string;
            name: string;
            /** @description Default schedule of the app's endpoints; null: HOOKLINE_RETRY_SCHEDULE */
            retrySchedule: string | null;
            /** @description Default deadline of the app's endpoints; null: HOOKLINE_DELIVERY_TIMEOUT_MS */
            timeoutMs: number | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
            /** @description Origins allowed to embed the app's customer portal in an iframe; empty: none */
            portalFrameAncestors: string[];
            /** @description The name the customer portal shows; null: the app's name */
            portalName: string | null;
            /** @description An https URL of the logo the customer portal shows; null: none */
            portalLogoUrl: string | null;
            /** @description The customer portal's accent colour, #rrggbb; null: the default */
            portalAccentColor: string | null;
            /** @description Only when listed with summary=true */
            summary?: components["schemas"]["AppSummary"];
        };
        AppPage: {
            data: components["schemas"]["App"][];
            nextCursor: string | null;
        };
        AppSummary: {
            endpoints: number;
            /** @description Attempts in the 24 hours ending with the current hour */
            attempts24h: number;
            /** @description Succeeded share of attempts24h, 0..1; null without attempts */
            successRate24h: number | null;
            /** @description Waiting, retrying and delivering, counted now */
            queued: number;
            /** @description The listed apps hold more than 10,000 unfinished deliveries: the count stopped there, so queued and queue are lower bounds */
            queueCapped: boolean;
            /** @description The same deliveries by what they wait for; the five add up to queued */
            queue: {
                /** @description Waiting or retrying and due now: sent as soon as a worker is free */
                worker: number;
                /** @description Held while their endpoint's circuit is open */
                circuit: number;
                /** @description Held while their endpoint is disabled */
                endpointEnabled: number;
                /** @description Scheduled for later (a retry backoff) */
                retryTime: number;
                /** @description Being sent now */
                delivering: number;
            };
        };
        Attempt: {
            /** @description null for a success kept on its delivery (keptOnDelivery) */
            id: string | null;
            deliveryId: string;
            attemptNumber: number;
            workerId: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            startedAt: string;
            durationMs: number;
            statusCode: number | null;
            errorClass: string | null;
            errorMessage: string | null;
            requestHeaders: {
                [key: string]: unknown;
            };
            responseHeaders: {
                [key: string]: unknown;
            } | null;
            responseBody: string | null;
            responseTruncated: boolean;
            /** @description true: a success recorded on its delivery row alone (HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS off; id null), or moved from there to an attempt row of its own when a replay sent the delivery again: status, time and duration as recorded, request headers rebuilt with the secrets valid then, response not kept */
            keptOnDelivery: boolean;
        };
        AuditEvent: {
            /** @description aud_... */
            id: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /** @description null: a deployment-wide resource (a key for every app, an operational endpoint) */
            appId: string | null;
            actor: {
                /** @enum {string} */
                type: "admin" | "api_key" | "portal" | "system";
                id: string | null;
                /** @description The admin's email; null for keys (their id says which) */
                label: string | null;
            };
            /** @description e.g. endpoint.created, endpoint.secret_rotated, replay.started, api_key.created */
            action: string;
            resourceType: string;
            resourceId: string;
            /** @description The fields that changed, before and after (all of them on a creation or deletion); never a secret */
            changes: {
                before: {
                    [key: string]: unknown;
                } | null;
                after: {
                    [key: string]: unknown;
                } | null;
            };
            remoteAddress: string | null;
        };
        AuditEventPage: {
            data: components["schemas"]["AuditEvent"][];
            nextCursor: string | null;
        };
        AuditSensitiveChangeEvent: {
            /** @constant */
            type: "audit.sensitive_change";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            /** @description A sensitive change recorded in the audit log (today: an API key for every app was created) */
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                /** @description aud_...: the audit log row (GET /api/v1/audit-events) */
                audit_event_id: string;
                /** @description e.g. api_key.created */
                action: string;
                resource_type: string;
                resource_id: string;
                /** @enum {string} */
                actor_type: "admin" | "api_key" | "portal" | "system";
                actor_id: string | null;
                actor_label: string | null;
                remote_address: string | null;
                /** @description Why it counts as sensitive, e.g. "An API key for every app was created" */
                reason: string;
            };
        };
        BackfillResult: {
            matched: number;
        } | {
            job: components["schemas"]["Job"];
        };
        CreatedApiKey: {
            apiKey: components["schemas"]["ApiKey"];
            /** @description The key; shown only in this response */
            key: string;
        };
        CreatedInvitation: {
            invitation: components["schemas"]["Invitation"];
            /** @description The link to send the new member; shown only in this response */
            url: string;
        };
        CreatedPortalSession: {
            id: string;
            appId: string;
            readOnly: boolean;
            /** @enum {string} */
            status: "active" | "expired" | "revoked";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            expiresAt: string;
            revokedAt: string | null;
            /** @description Open this (or put it in an iframe) to enter the portal; shown once, it holds the session token */
            url: string;
        };
        Delivery: {
            id: string;
            appId: string;
            messageId: string;
            endpointId: string;
            endpointUrl: string;
            eventType: string;
            /**
             * @description waiting: not tried yet; retrying: failed at least once, next attempt scheduled; delivering; succeeded; dead: retries exhausted; cancelled
             * @enum {string}
             */
            state: "waiting" | "retrying" | "delivering" | "succeeded" | "dead" | "cancelled";
            attemptCount: number;
            nextAttemptAt: string | null;
            lastAttemptAt: string | null;
            lastStatusCode: number | null;
            lastErrorClass: string | null;
            lastDurationMs: number | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
        };
        DeliveryDeadEvent: {
            /** @constant */
            type: "delivery.dead";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id: string;
                endpoint_url: string;
                error_class: string;
                /** @description Deliveries of this endpoint and error class found dead by this pass */
                count: number;
                /** @description Up to 20 of them; the issue lists all */
                delivery_ids: string[];
                last_status_code: number | null;
            };
        };
        DeliveryDetail: {
            id: string;
            appId: string;
            messageId: string;
            endpointId: string;
            endpointUrl: string;
            eventType: string;
            /**
             * @description waiting: not tried yet; retrying: failed at least once, next attempt scheduled; delivering; succeeded; dead: retries exhausted; cancelled
             * @enum {string}
             */
            state: "waiting" | "retrying" | "delivering" | "succeeded" | "dead" | "cancelled";
            attemptCount: number;
            nextAttemptAt: string | null;
            lastAttemptAt: string | null;
            lastStatusCode: number | null;
            lastErrorClass: string | null;
            lastDurationMs: number | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
            wait: components["schemas"]["DeliveryWait"] | null;
            request: components["schemas"]["DeliveryRequest"];
            attempts: components["schemas"]["Attempt"][];
            message: components["schemas"]["Message"];
        };
        DeliveryPage: {
            data: components["schemas"]["Delivery"][];
            nextCursor: string | null;
            /** @description With search or payloadPath (on messages also eventType, statusCode, errorClass or minAttempts; on deliveries eventType, errorClass, statusCode, attemptCount or minAttempts without id, messageId or idempotencyKey): how far back in time this page searched (every match newer than it, within the range, is on this page or an earlier one); the walk goes on from there with nextCursor, which is null once the whole range is searched. Null without a search, or when the search reached the oldest data kept. */
            searchedBackTo: string | null;
        };
        /** @description What each attempt sends; the attempt's requestHeaders carry its timestamp and signatures */
        DeliveryRequest: {
            /**
             * @description POST, or GET / DELETE for the endpoints hookline.http_get and hookline.http_delete create
             * @enum {string}
             */
            method: "POST" | "GET" | "DELETE";
            /** @description The endpoint's URL now (attempts do not record it) */
            url: string;
            /** @description The exact bytes every attempt sends, empty for none (GET); the signatures cover them */
            body: string;
        };
        /** @description Why a waiting or retrying delivery has not been sent yet */
        DeliveryWait: {
            /** @enum {string} */
            reason: "endpoint_disabled" | "circuit_open" | "retry_scheduled" | "due";
            until: string | null;
            nextAttempt: number;
            maxAttempts: number;
            message: string;
        };
        Endpoint: {
            id: string;
            appId: string;
            url: string;
            /**
             * @description POST; GET or DELETE only for the implicit endpoints hookline.http_get and hookline.http_delete create
             * @enum {string}
             */
            method: "POST" | "GET" | "DELETE";
            description: string;
            eventTypes: string[];
            enabled: boolean;
            disabledReason: string | null;
            disabledAt: string | null;
            maxConcurrency: number;
            rateLimitPerSecond: number | null;
            /** @description Whether its rate limit is holding deliveries back now (a worker asked for more tokens than it got in the last 5 s); on a single endpoint only */
            heldByRateLimit?: boolean;
            headers: {
                [key: string]: string;
            };
            implicit: boolean;
            /** @description This endpoint's own schedule; null: the app's, else the deployment's */
            retrySchedule: string | null;
            /** @description This endpoint's own deadline; null: the app's, else the deployment's */
            timeoutMs: number | null;
            retryPolicy: {
                /** @description e.g. "0,5s,5m,30m" */
                retrySchedule: string;
                maxAttempts: number;
                /** @enum {string} */
                retryScheduleFrom: "endpoint" | "app" | "deployment";
                timeoutMs: number;
                /** @enum {string} */
                timeoutFrom: "endpoint" | "app" | "deployment";
            };
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
            health: components["schemas"]["EndpointHealth"];
        };
        EndpointCircuitClosedEvent: {
            /** @constant */
            type: "endpoint.circuit_closed";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id: string;
                endpoint_url: string;
                consecutive_failures: number;
                last_error_class: string | null;
                /** @enum {string} */
                circuit_state: "closed" | "open" | "half_open";
                failing_since: string | null;
                last_failure_at: string | null;
            };
        };
        EndpointCircuitOpenedEvent: {
            /** @constant */
            type: "endpoint.circuit_opened";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id: string;
                endpoint_url: string;
                consecutive_failures: number;
                last_error_class: string | null;
                /** @enum {string} */
                circuit_state: "closed" | "open" | "half_open";
                failing_since: string | null;
                last_failure_at: string | null;
                circuit_open_until: string | null;
            };
        };
        EndpointDisabledEvent: {
            /** @constant */
            type: "endpoint.disabled";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id: string;
                endpoint_url: string;
                consecutive_failures: number;
                last_error_class: string | null;
                /** @enum {string} */
                circuit_state: "closed" | "open" | "half_open";
                failing_since: string | null;
                last_failure_at: string | null;
                reason: string | null;
            };
        };
        EndpointEnabledEvent: {
            /** @constant */
            type: "endpoint.enabled";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id: string;
                endpoint_url: string;
                consecutive_failures: number;
                last_error_class: string | null;
                /** @enum {string} */
                circuit_state: "closed" | "open" | "half_open";
                failing_since: string | null;
                last_failure_at: string | null;
            };
        };
        EndpointFailingEvent: {
            /** @constant */
            type: "endpoint.failing";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id: string;
                endpoint_url: string;
                consecutive_failures: number;
                last_error_class: string | null;
                /** @enum {string} */
                circuit_state: "closed" | "open" | "half_open";
                failing_since: string | null;
                last_failure_at: string | null;
            };
        };
        EndpointHealth: {
            /** @enum {string} */
            circuitState: "closed" | "open" | "half_open";
            consecutiveFailures: number;
            lastSuccessAt: string | null;
            lastFailureAt: string | null;
            lastErrorClass: string | null;
            /** @description Share of attempts in the last 24 h that succeeded, 0..1 */
            successRate24h: number | null;
            attempts24h: number;
            /** @description Deliveries not finished yet (pending or delivering), counted up to a cap: see pendingCapped */
            pending: number;
            /** @description More than `pending` are unfinished: the count stopped there (10,000 for one endpoint; endpoints listed together share that, at least 100 each) */
            pendingCapped: boolean;
        };
        EndpointPage: {
            data: components["schemas"]["Endpoint"][];
            nextCursor: string | null;
        };
        EndpointRecoveredEvent: {
            /** @constant */
            type: "endpoint.recovered";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id: string;
                endpoint_url: string;
                consecutive_failures: number;
                last_error_class: string | null;
                /** @enum {string} */
                circuit_state: "closed" | "open" | "half_open";
                /** @description When it was found failing (the outage that ended) */
                failing_since: string | null;
                last_failure_at: string | null;
            };
        };
        EndpointSecrets: {
            secrets: {
                secret: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                createdAt: string;
                expiresAt: string | null;
            }[];
        };
        EndpointStats: {
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            from: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            to: string;
            bucketSeconds: number;
            totals: {
                /** @description Attempts in the range, retries included */
                attempts: number;
                succeeded: number;
                failed: number;
                /** @description Succeeded share of attempts, 0..1; null without attempts */
                successRate: number | null;
                /** @description The receiver's response time over the range */
                latencyMs: {
                    p50: number | null;
                    p95: number | null;
                    p99: number | null;
                };
            };
            series: {
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                time: string;
                succeeded: number;
                failed: number;
                p50: number | null;
                p95: number | null;
                p99: number | null;
            }[];
        };
        EndpointWithSecret: {
            id: string;
            appId: string;
            url: string;
            /**
             * @description POST; GET or DELETE only for the implicit endpoints hookline.http_get and hookline.http_delete create
             * @enum {string}
             */
            method: "POST" | "GET" | "DELETE";
            description: string;
            eventTypes: string[];
            enabled: boolean;
            disabledReason: string | null;
            disabledAt: string | null;
            maxConcurrency: number;
            rateLimitPerSecond: number | null;
            /** @description Whether its rate limit is holding deliveries back now (a worker asked for more tokens than it got in the last 5 s); on a single endpoint only */
            heldByRateLimit?: boolean;
            headers: {
                [key: string]: string;
            };
            implicit: boolean;
            /** @description This endpoint's own schedule; null: the app's, else the deployment's */
            retrySchedule: string | null;
            /** @description This endpoint's own deadline; null: the app's, else the deployment's */
            timeoutMs: number | null;
            retryPolicy: {
                /** @description e.g. "0,5s,5m,30m" */
                retrySchedule: string;
                maxAttempts: number;
                /** @enum {string} */
                retryScheduleFrom: "endpoint" | "app" | "deployment";
                timeoutMs: number;
                /** @enum {string} */
                timeoutFrom: "endpoint" | "app" | "deployment";
            };
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
            health: components["schemas"]["EndpointHealth"];
            secret: string;
        };
        Error: {
            error: {
                /** @description snake_case, stable */
                code: string;
                message: string;
                details?: unknown;
            };
        };
        EventType: {
            id: string;
            appId: string;
            name: string;
            description: string;
            schema: {
                [key: string]: unknown;
            } | null;
            archived: boolean;
            /** @description An example payload derived from the schema (its `examples` keyword wins); null without a schema */
            example: unknown;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
        };
        EventTypePage: {
            data: components["schemas"]["EventType"][];
            nextCursor: string | null;
        };
        Invitation: {
            id: string;
            email: string;
            /**
             * @description owner: members and settings, and everything an admin does; admin: everything operational; developer: apps, endpoints, event types, messages and replays within its apps; viewer: read only
             * @enum {string}
             */
            role: "owner" | "admin" | "developer" | "viewer";
            appIds: string[];
            /** @description The member who invited */
            invitedBy: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            expiresAt: string;
            /** @enum {string} */
            state: "pending" | "accepted" | "revoked" | "expired";
        };
        InvitationList: {
            data: components["schemas"]["Invitation"][];
        };
        Issue: {
            id: string;
            appId: string;
            endpointId: string | null;
            alertRuleId: string | null;
            /** @description The error class, or "alert" for an alert rule */
            errorClass: string;
            title: string;
            /** @enum {string} */
            status: "open" | "acknowledged" | "resolved";
            /** @description Operational events that opened or touched it */
            eventCount: number;
            /** @description Dead deliveries counted into it */
            affectedDeliveries: number;
            reopenedCount: number;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            firstSeenAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            lastSeenAt: string;
            acknowledgedAt: string | null;
            resolvedAt: string | null;
            /** @description No notification about this issue before then */
            mutedUntil: string | null;
            /** @description The URL of the issue's endpoint, if it is about one */
            endpointUrl: string | null;
        };
        IssueCounts: {
            open: number;
            acknowledged: number;
            resolved: number;
        };
        IssueDetail: {
            id: string;
            appId: string;
            endpointId: string | null;
            alertRuleId: string | null;
            /** @description The error class, or "alert" for an alert rule */
            errorClass: string;
            title: string;
            /** @enum {string} */
            status: "open" | "acknowledged" | "resolved";
            /** @description Operational events that opened or touched it */
            eventCount: number;
            /** @description Dead deliveries counted into it */
            affectedDeliveries: number;
            reopenedCount: number;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            firstSeenAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            lastSeenAt: string;
            acknowledgedAt: string | null;
            resolvedAt: string | null;
            /** @description No notification about this issue before then */
            mutedUntil: string | null;
            /** @description The URL of the issue's endpoint, if it is about one */
            endpointUrl: string | null;
            /** @description The most recent 100 affected deliveries */
            deliveryIds: string[];
            /** @description The most recent 50 events of this issue */
            events: components["schemas"]["OperationalEventRecord"][];
        };
        IssuePage: {
            data: components["schemas"]["Issue"][];
            nextCursor: string | null;
        };
        IssueReminderEvent: {
            /** @constant */
            type: "issue.reminder";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id?: string;
                endpoint_url?: string;
                title: string;
                /** @enum {string} */
                status: "open" | "acknowledged" | "resolved";
                error_class: string;
                alert_rule_id?: string;
                event_count: number;
                affected_deliveries: number;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                first_seen_at: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                last_seen_at: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                resolved_at?: string;
            };
        };
        IssueReopenedEvent: {
            /** @constant */
            type: "issue.reopened";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id?: string;
                endpoint_url?: string;
                title: string;
                /** @enum {string} */
                status: "open" | "acknowledged" | "resolved";
                error_class: string;
                alert_rule_id?: string;
                event_count: number;
                affected_deliveries: number;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                first_seen_at: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                last_seen_at: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                resolved_at?: string;
            };
        };
        IssueResolvedEvent: {
            /** @constant */
            type: "issue.resolved";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                endpoint_id?: string;
                endpoint_url?: string;
                title: string;
                /** @enum {string} */
                status: "open" | "acknowledged" | "resolved";
                error_class: string;
                alert_rule_id?: string;
                event_count: number;
                affected_deliveries: number;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                first_seen_at: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                last_seen_at: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                resolved_at?: string;
            };
        };
        Job: {
            id: string;
            appId: string;
            /**
             * @description replay: deliveries matching a filter; recover: failed deliveries of an endpoint since a time; backfill: messages since a time sent to an endpoint
             * @enum {string}
             */
            kind: "replay" | "recover" | "backfill";
            /** @description What the job acts on, as it was asked for */
            params: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            state: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            /** @description Rows the job will act on, counted when it was created */
            total: number;
            /** @description true: counting a payload search stopped at its cap or time budget, so the job acts on at least `total` rows; `processed` may pass it */
            totalIsLowerBound: boolean;
            /** @description Rows acted on so far: replayed deliveries, or backfilled deliveries created */
            processed: number;
            error: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
        };
        JobFinishedEvent: {
            /** @constant */
            type: "job.finished";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            timestamp: string;
            /** @description Emitted by background jobs; their own fields (counts, times) follow */
            data: {
                /** @description opev_...: the operational event; the webhook-id header is the message id */
                event_id: string;
                /** @description The app the event is about */
                app_id: string;
                app_name?: string;
                /** @description The issue this event opened, touched or resolved */
                issue_id?: string;
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                occurred_at: string;
                /** @description One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks" */
                summary: string;
                /** @description The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT) */
                dashboard_url: string;
                job_id: string;
                kind: string;
            } & {
                [key: string]: unknown;
            };
        };
        JobPage: {
            data: components["schemas"]["Job"][];
            nextCursor: string | null;
        };
        Member: {
            id: string;
            email: string;
            /**
             * @description owner: members and settings, and everything an admin does; admin: everything operational; developer: apps, endpoints, event types, messages and replays within its apps; viewer: read only
             * @enum {string}
             */
            role: "owner" | "admin" | "developer" | "viewer";
            appIds: string[];
            /** @description Whether password sign-in also asks for an authenticator code */
            totpEnabled: boolean;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
        };
        MemberList: {
            data: components["schemas"]["Member"][];
        };
        MemberSession: {
            id: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description Updated at most once a minute
             */
            lastSeenAt: string;
            /**
             * Format: date-time
             * @description The absolute end (HOOKLINE_SESSION_TTL_HOURS after sign-in)
             */
            expiresAt: string;
            userAgent: string | null;
            ip: string | null;
            /** @description The session making this request */
            current: boolean;
        };
        MemberSessionList: {
            data: components["schemas"]["MemberSession"][];
        };
        Message: {
            id: string;
            appId: string;
            eventType: string;
            payload: unknown;
            idempotencyKey: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
        };
        MessageDetail: {
            id: string;
            appId: string;
            eventType: string;
            payload: unknown;
            idempotencyKey: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            deliveries: components["schemas"]["Delivery"][];
        };
        /** @description The message's deliveries counted by state */
        MessageOutcome: {
            deliveries: number;
            waiting: number;
            retrying: number;
            delivering: number;
            succeeded: number;
            dead: number;
            cancelled: number;
        };
        MessageWithOutcome: {
            id: string;
            appId: string;
            eventType: string;
            payload: unknown;
            idempotencyKey: string | null;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            outcome: components["schemas"]["MessageOutcome"];
        };
        MessageWithOutcomePage: {
            data: components["schemas"]["MessageWithOutcome"][];
            nextCursor: string | null;
            /** @description With search or payloadPath (on messages also eventType, statusCode, errorClass or minAttempts; on deliveries eventType, errorClass, statusCode, attemptCount or minAttempts without id, messageId or idempotencyKey): how far back in time this page searched (every match newer than it, within the range, is on this page or an earlier one); the walk goes on from there with nextCursor, which is null once the whole range is searched. Null without a search, or when the search reached the oldest data kept. */
            searchedBackTo: string | null;
        };
        OperationalEndpoint: {
            id: string;
            appId: string;
            url: string;
            /**
             * @description POST; GET or DELETE only for the implicit endpoints hookline.http_get and hookline.http_delete create
             * @enum {string}
             */
            method: "POST" | "GET" | "DELETE";
            description: string;
            eventTypes: string[];
            enabled: boolean;
            disabledReason: string | null;
            disabledAt: string | null;
            maxConcurrency: number;
            rateLimitPerSecond: number | null;
            /** @description Whether its rate limit is holding deliveries back now (a worker asked for more tokens than it got in the last 5 s); on a single endpoint only */
            heldByRateLimit?: boolean;
            headers: {
                [key: string]: string;
            };
            implicit: boolean;
            /** @description This endpoint's own schedule; null: the app's, else the deployment's */
            retrySchedule: string | null;
            /** @description This endpoint's own deadline; null: the app's, else the deployment's */
            timeoutMs: number | null;
            retryPolicy: {
                /** @description e.g. "0,5s,5m,30m" */
                retrySchedule: string;
                maxAttempts: number;
                /** @enum {string} */
                retryScheduleFrom: "endpoint" | "app" | "deployment";
                timeoutMs: number;
                /** @enum {string} */
                timeoutFrom: "endpoint" | "app" | "deployment";
            };
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
            health: components["schemas"]["EndpointHealth"];
            /** @description Only events of this app; null: every app (deployment-wide) */
            scopeAppId: string | null;
            payloadTemplate: string | null;
        };
        OperationalEndpointPage: {
            data: components["schemas"]["OperationalEndpoint"][];
            nextCursor: string | null;
        };
        OperationalEndpointWithSecret: {
            id: string;
            appId: string;
            url: string;
            /**
             * @description POST; GET or DELETE only for the implicit endpoints hookline.http_get and hookline.http_delete create
             * @enum {string}
             */
            method: "POST" | "GET" | "DELETE";
            description: string;
            eventTypes: string[];
            enabled: boolean;
            disabledReason: string | null;
            disabledAt: string | null;
            maxConcurrency: number;
            rateLimitPerSecond: number | null;
            /** @description Whether its rate limit is holding deliveries back now (a worker asked for more tokens than it got in the last 5 s); on a single endpoint only */
            heldByRateLimit?: boolean;
            headers: {
                [key: string]: string;
            };
            implicit: boolean;
            /** @description This endpoint's own schedule; null: the app's, else the deployment's */
            retrySchedule: string | null;
            /** @description This endpoint's own deadline; null: the app's, else the deployment's */
            timeoutMs: number | null;
            retryPolicy: {
                /** @description e.g. "0,5s,5m,30m" */
                retrySchedule: string;
                maxAttempts: number;
                /** @enum {string} */
                retryScheduleFrom: "endpoint" | "app" | "deployment";
                timeoutMs: number;
                /** @enum {string} */
                timeoutFrom: "endpoint" | "app" | "deployment";
            };
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            updatedAt: string;
            health: components["schemas"]["EndpointHealth"];
            /** @description Only events of this app; null: every app (deployment-wide) */
            scopeAppId: string | null;
            payloadTemplate: string | null;
            secret: string;
        };
        OperationalEventRecord: {
            id: string;
            appId: string;
            type: string;
            endpointId: string | null;
            issueId: string | null;
            data: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
        };
        OperationalEventRecordPage: {
            data: components["schemas"]["OperationalEventRecord"][];
            nextCursor: string | null;
        };
        PortalSession: {
            id: string;
            appId: string;
            readOnly: boolean;
            /** @enum {string} */
            status: "active" | "expired" | "revoked";
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            expiresAt: string;
            revokedAt: string | null;
        };
        PortalSessionPage: {
            data: components["schemas"]["PortalSession"][];
            nextCursor: string | null;
        };
        ReplayResult: {
            replayed: number;
        };
        ReplaySelectionResult: {
            replayed: number;
        } | {
            matched: number;
            /** @description true: a payload search stopped counting at 10,000 matches or at HOOKLINE_SEARCH_BUDGET_MS, so at least `matched` match (the job still replays every one); false or absent: exactly `matched` */
            matchedIsLowerBound?: boolean;
        } | {
            job: components["schemas"]["Job"];
        };
        RevokedSessions: {
            revoked: number;
        };
        RotatedSecret: {
            secret: string;
        };
        Stats: {
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            from: string;
            /**
             * Format: date-time
             * @description ISO-8601 timestamp
             */
            to: string;
            bucketSeconds: number;
            /** @description Counted now; the states are those of a delivery */
            queue: {
                /** @description Pending, never tried */
                waiting: number;
                /** @description Pending, failed at least once */
                retrying: number;
                delivering: number;
                /** @description Counted up to 10,000: with deadCapped, more than this many are dead (the count stops there) */
                dead: number;
                /** @description More than `dead` deliveries are dead: the count stopped at 10,000, so it costs the same at any history */
                deadCapped: boolean;
                /** @description More than 10,000 deliveries in scope are unfinished: the count stopped there, so waiting, retrying, delivering and waitingFor are lower bounds (the queue chart samples count them all once a minute) */
                liveCapped: boolean;
                /** @description The waiting and retrying deliveries by what they wait for; the four add up to waiting + retrying */
                waitingFor: {
                    /** @description Due now: sent as soon as a worker has a free slot */
                    worker: number;
                    /** @description Held while their endpoint's circuit is open, until a probe succeeds */
                    circuit: number;
                    /** @description Held while their endpoint is disabled */
                    endpointEnabled: number;
                    /** @description Scheduled for later: the backoff of a retry (or a Retry-After) runs */
                    retryTime: number;
                };
            };
            totals: {
                attempts: number;
                succeeded: number;
                failed: number;
                successRate: number | null;
                /** @description Attempts (retries included) per second over rateSpan, the part of the range that holds attempts; null without any */
                attemptsPerSecond: number | null;
                /** @description From the first minute with attempts in the range to the end of the last one (at most `to` or now) */
                rateSpan: {
                    /**
                     * Format: date-time
                     * @description ISO-8601 timestamp
                     */
                    from: string;
                    /**
                     * Format: date-time
                     * @description ISO-8601 timestamp
                     */
                    to: string;
                    seconds: number;
                } | null;
                /** @description The last complete minute of the range: the rate right now when the range ends now */
                lastMinute: {
                    /**
                     * Format: date-time
                     * @description ISO-8601 timestamp
                     */
                    from: string;
                    /**
                     * Format: date-time
                     * @description ISO-8601 timestamp
                     */
                    to: string;
                    attempts: number;
                    attemptsPerSecond: number;
                } | null;
                latencyMs: {
                    p50: number | null;
                    p95: number | null;
                    p99: number | null;
                };
            };
            series: {
                /**
                 * Format: date-time
                 * @description ISO-8601 timestamp
                 */
                time: string;
                succeeded: number;
                failed: number;
                p50: number | null;
                p95: number | null;
                p99: number | null;
                /** @description Queue sample; null where none was taken. The last point is counted now */
                waiting: number | null;
                retrying: number | null;
                delivering: number | null;
                dead: number | null;
                /** @description Failed attempts per error class */
                errorClasses: {
                    [key: string]: number;
                };
                /** @description Attempts per response status code */
                statusCodes: {
                    [key: string]: number;
                };
            }[];
            errorClasses: {
                errorClass: string;
                count: number;
                /** @description Of failed attempts, 0..1 */
                share: number;
            }[];
            statusCodes: {
                statusCode: number;
                count: number;
                /** @description Of responses, 0..1 */
                share: number;
            }[];
            /** @description The read replica of HOOKLINE_READ_DATABASE_URL; null when none is configured */
            readReplica: {
                /** @description Whether these numbers were read from the replica */
                inUse: boolean;
                /** @description How far behind the primary it is; 0 when caught up */
                lagSeconds: number | null;
                /** @description WAL bytes it has yet to replay */
                lagBytes: number | null;
                /** @description Why it is not read from (unreachable, too far behind, not a standby) */
                problem: string | null;
            } | null;
            worstEndpoints: {
                endpointId: string;
                appId: string;
                url: string;
                attempts: number;
                failed: number;
                successRate: number | null;
                lastErrorClass: string | null;
            }[];
        };
    };
    responses: {
        /** @description Malformed JSON or invalid query parameters */
        Error400: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing, unknown or revoked credentials */
        Error401: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not allowed for these credentials (app-limited key, or CSRF check of a session) */
        Error403: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No such resource in the apps these credentials can see */
        Error404: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflict with the current state */
        Error409: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Body larger than HOOKLINE_MAX_PAYLOAD_BYTES */
        Error413: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Body is not application/json */
        Error415: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Valid JSON with invalid values; details lists { path, message } */
        Error422: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rate limited; see Retry-After */
        Error429: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Internal error; the message carries an error id found in the server log */
        Error500: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listApps: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
                /** @description Add each app's endpoint count, 24 h success rate and queued deliveries */
                summary?: "true" | "false";
                /** @description Only apps whose name or id contains this text, in any case (a picker finds one among thousands) */
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppPage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Delay before each attempt, as HOOKLINE_RETRY_SCHEDULE writes it ("0,5s,5m,2h") or as a JSON array (["0", "5s", "5m"]; numbers are milliseconds). The first entry is the first attempt and must be 0; at most 20 entries, each at most 3d. null: inherit */
                    retrySchedule?: (string | (string | number)[]) | null;
                    /** @description Per-attempt deadline in milliseconds, 100 to 300000; null: inherit */
                    timeoutMs?: number | null;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    deleteApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    updateApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Delay before each attempt, as HOOKLINE_RETRY_SCHEDULE writes it ("0,5s,5m,2h") or as a JSON array (["0", "5s", "5m"]; numbers are milliseconds). The first entry is the first attempt and must be 0; at most 20 entries, each at most 3d. null: inherit */
                    retrySchedule?: (string | (string | number)[]) | null;
                    /** @description Per-attempt deadline in milliseconds, 100 to 300000; null: inherit */
                    timeoutMs?: number | null;
                    /** @description Origins allowed to embed the app's customer portal in an iframe (at most 20); [] allows none */
                    portalFrameAncestors?: string[];
                    /** @description null: show the app's name */
                    portalName?: string | null;
                    /** @description null: no logo */
                    portalLogoUrl?: string | null;
                    /** @description null: the default colour */
                    portalAccentColor?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listEventTypes: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
                /** @description Archived event types are listed too (default true) */
                includeArchived?: "true" | "false";
                /** @description Only event types whose name contains this text, in any case (a picker finds one among thousands) */
                name?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventTypePage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createEventType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    schema?: {
                        [key: string]: unknown;
                    } | null;
                    archived?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getEventType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                eventTypeName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    deleteEventType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                eventTypeName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    updateEventType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                eventTypeName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    schema?: {
                        [key: string]: unknown;
                    } | null;
                    archived?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listEndpoints: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
                /** @description Only endpoints whose URL, description or id contains this text, in any case */
                search?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointPage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http or https URL of the receiver */
                    url: string;
                    description?: string;
                    /** @description Event types to receive; empty or omitted = all */
                    eventTypes?: string[];
                    maxConcurrency?: number;
                    rateLimitPerSecond?: number | null;
                    /** @description Extra request headers, at most 50; names of at most 256 token characters, values without control characters; webhook-*, Host, Content-Type, Content-Length, Transfer-Encoding and the connection headers are reserved */
                    headers?: {
                        [key: string]: string;
                    };
                    /** @description Signing secret; generated when omitted */
                    secret?: string;
                    /** @description Delay before each attempt, as HOOKLINE_RETRY_SCHEDULE writes it ("0,5s,5m,2h") or as a JSON array (["0", "5s", "5m"]; numbers are milliseconds). The first entry is the first attempt and must be 0; at most 20 entries, each at most 3d. null: inherit */
                    retrySchedule?: (string | (string | number)[]) | null;
                    /** @description Per-attempt deadline in milliseconds, 100 to 300000; null: inherit */
                    timeoutMs?: number | null;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointWithSecret"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    deleteEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    updateEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http or https URL of the receiver */
                    url?: string;
                    description?: string;
                    eventTypes?: string[];
                    maxConcurrency?: number;
                    rateLimitPerSecond?: number | null;
                    /** @description Extra request headers, at most 50; names of at most 256 token characters, values without control characters; webhook-*, Host, Content-Type, Content-Length, Transfer-Encoding and the connection headers are reserved */
                    headers?: {
                        [key: string]: string;
                    };
                    /** @description Delay before each attempt, as HOOKLINE_RETRY_SCHEDULE writes it ("0,5s,5m,2h") or as a JSON array (["0", "5s", "5m"]; numbers are milliseconds). The first entry is the first attempt and must be 0; at most 20 entries, each at most 3d. null: inherit */
                    retrySchedule?: (string | (string | number)[]) | null;
                    /** @description Per-attempt deadline in milliseconds, 100 to 300000; null: inherit */
                    timeoutMs?: number | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    enableEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    disableEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getEndpointSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointSecrets"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    rotateEndpointSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description How long the old secret keeps signing (default 86400, at most 7 days) */
                    gracePeriodSeconds?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSecret"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    sendTestMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Defaults to "hookline.test" */
                    eventType?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    recoverEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    since: string;
                    /** @description Only count what would be replayed; changes nothing */
                    dryRun?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplaySelectionResult"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listMessages: {
        parameters: {
            query?: {
                /** @description Messages of this event type (a search: see searchedBackTo) */
                eventType?: string;
                /** @description One message id (the webhook-id header receivers saw) */
                id?: string;
                /** @description The idempotency key it was sent with */
                idempotencyKey?: string;
                /** @description Messages with a delivery whose latest attempt answered this status (a search: see searchedBackTo) */
                statusCode?: number;
                /** @description Messages with a delivery whose latest attempt failed so (a search: see searchedBackTo) */
                errorClass?: "timeout" | "connect_refused" | "connection_reset" | "empty_reply" | "dns" | "tls" | "blocked_address" | "invalid_url" | "invalid_header" | "http_3xx" | "http_4xx" | "http_5xx" | "network" | "unknown";
                /** @description Messages with a delivery tried this often (a search: see searchedBackTo) */
                minAttempts?: number;
                /** @description A substring of the payload, any case, as PostgreSQL prints JSON ({"a": 1}: a space after each colon and comma); any range */
                search?: string;
                /** @description A payload field to match, dot-separated (needs payloadValue); any range */
                payloadPath?: string;
                /** @description equals: the JSON value payloadPath must equal (42, true, "x"; anything that is not JSON is a string); contains: a substring of it, any case */
                payloadValue?: string;
                /** @description How payloadValue matches the field at payloadPath: equals (the default) or contains */
                payloadMatch?: "equals" | "contains";
                /** @description Written at or after: the time its id begins with, when its producer wrote it (createdAt is when its transaction began) */
                from?: string;
                /** @description Written before (as from) */
                to?: string;
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageWithOutcomePage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries safe: one message per key and app */
                "Idempotency-Key"?: string;
                /** @description The producer's W3C trace context: kept with the message, and each delivery attempt's span (when the worker traces, OTEL_EXPORTER_OTLP_ENDPOINT) links to it. A malformed one is ignored, not refused. */
                traceparent?: string;
                /** @description Vendor trace state that goes with traceparent; kept when 512 characters or fewer. */
                tracestate?: string;
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    eventType: string;
                    /** @description Any JSON object; delivered as the request body (at most HOOKLINE_MAX_PAYLOAD_BYTES) */
                    payload: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageDetail"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    replayMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayResult"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                endpointId?: string;
                eventType?: string;
                /** @description A state, or `failed` (retrying or dead), or `pending` (waiting or retrying, the name before the split) */
                state?: "waiting" | "retrying" | "delivering" | "succeeded" | "dead" | "cancelled" | "failed" | "pending";
                /** @description The latest attempt's error class */
                errorClass?: "timeout" | "connect_refused" | "connection_reset" | "empty_reply" | "dns" | "tls" | "blocked_address" | "invalid_url" | "invalid_header" | "http_3xx" | "http_4xx" | "http_5xx" | "network" | "unknown";
                /** @description The latest attempt's status code */
                statusCode?: number;
                /** @description Exactly this many attempts made */
                attemptCount?: number;
                /** @description At least this many attempts made */
                minAttempts?: number;
                /** @description The message id, which is also the webhook-id header */
                messageId?: string;
                /** @description The message's idempotency key */
                idempotencyKey?: string;
                /** @description Created at or after */
                from?: string;
                /** @description Created before */
                to?: string;
                /** @description One delivery id */
                id?: string;
                /** @description A substring of the payload, any case, as PostgreSQL prints JSON ({"a": 1}: a space after each colon and comma); any range */
                search?: string;
                /** @description A payload field to match, dot-separated (needs payloadValue); any range */
                payloadPath?: string;
                /** @description equals: the JSON value payloadPath must equal (42, true, "x"; anything that is not JSON is a string); contains: a substring of it, any case */
                payloadValue?: string;
                /** @description How payloadValue matches the field at payloadPath: equals (the default) or contains */
                payloadMatch?: "equals" | "contains";
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryPage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryDetail"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    replayDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayResult"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    replayDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    deliveryIds: string[];
                } | {
                    filter: {
                        endpointId?: string;
                        eventType?: string;
                        /**
                         * @description A state, or `failed` (retrying or dead), or `pending` (waiting or retrying, the name before the split)
                         * @enum {string}
                         */
                        state?: "waiting" | "retrying" | "delivering" | "succeeded" | "dead" | "cancelled" | "failed" | "pending";
                        /**
                         * @description The latest attempt's error class
                         * @enum {string}
                         */
                        errorClass?: "timeout" | "connect_refused" | "connection_reset" | "empty_reply" | "dns" | "tls" | "blocked_address" | "invalid_url" | "invalid_header" | "http_3xx" | "http_4xx" | "http_5xx" | "network" | "unknown";
                        /** @description The latest attempt's status code */
                        statusCode?: number;
                        /** @description Exactly this many attempts made */
                        attemptCount?: number;
                        /** @description At least this many attempts made */
                        minAttempts?: number;
                        /** @description The message id, which is also the webhook-id header */
                        messageId?: string;
                        /** @description The message's idempotency key */
                        idempotencyKey?: string;
                        /**
                         * Format: date-time
                         * @description Created at or after
                         */
                        from?: string;
                        /**
                         * Format: date-time
                         * @description Created before
                         */
                        to?: string;
                        /** @description One delivery id */
                        id?: string;
                        /** @description A substring of the payload, any case, as PostgreSQL prints JSON ({"a": 1}: a space after each colon and comma); any range */
                        search?: string;
                        /** @description A payload field to match, dot-separated (needs payloadValue); any range */
                        payloadPath?: string;
                        /** @description equals: the JSON value payloadPath must equal (42, true, "x"; anything that is not JSON is a string); contains: a substring of it, any case */
                        payloadValue?: string;
                        /**
                         * @description How payloadValue matches the field at payloadPath: equals (the default) or contains
                         * @enum {string}
                         */
                        payloadMatch?: "equals" | "contains";
                    };
                    dryRun?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplaySelectionResult"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    cancelDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    backfillEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Created at or after this time
                     */
                    since: string;
                    /** @description Only count the messages it would send; changes nothing */
                    dryRun?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackfillResult"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                state?: "queued" | "running" | "succeeded" | "failed" | "cancelled";
                kind?: "replay" | "recover" | "backfill";
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobPage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    kind: "replay";
                    /** @description The deliveries list filters, payload search included; without `state`, the failed ones (retrying or dead) */
                    filter: {
                        endpointId?: string;
                        eventType?: string;
                        /**
                         * @description A state, or `failed` (retrying or dead), or `pending` (waiting or retrying, the name before the split)
                         * @enum {string}
                         */
                        state?: "waiting" | "retrying" | "delivering" | "succeeded" | "dead" | "cancelled" | "failed" | "pending";
                        /**
                         * @description The latest attempt's error class
                         * @enum {string}
                         */
                        errorClass?: "timeout" | "connect_refused" | "connection_reset" | "empty_reply" | "dns" | "tls" | "blocked_address" | "invalid_url" | "invalid_header" | "http_3xx" | "http_4xx" | "http_5xx" | "network" | "unknown";
                        /** @description The latest attempt's status code */
                        statusCode?: number;
                        /** @description Exactly this many attempts made */
                        attemptCount?: number;
                        /** @description At least this many attempts made */
                        minAttempts?: number;
                        /** @description The message id, which is also the webhook-id header */
                        messageId?: string;
                        /** @description The message's idempotency key */
                        idempotencyKey?: string;
                        /**
                         * Format: date-time
                         * @description Created at or after
                         */
                        from?: string;
                        /**
                         * Format: date-time
                         * @description Created before
                         */
                        to?: string;
                        /** @description One delivery id */
                        id?: string;
                        /** @description A substring of the payload, any case, as PostgreSQL prints JSON ({"a": 1}: a space after each colon and comma); any range */
                        search?: string;
                        /** @description A payload field to match, dot-separated (needs payloadValue); any range */
                        payloadPath?: string;
                        /** @description equals: the JSON value payloadPath must equal (42, true, "x"; anything that is not JSON is a string); contains: a substring of it, any case */
                        payloadValue?: string;
                        /**
                         * @description How payloadValue matches the field at payloadPath: equals (the default) or contains
                         * @enum {string}
                         */
                        payloadMatch?: "equals" | "contains";
                    };
                } | {
                    /** @constant */
                    kind: "recover";
                    endpointId: string;
                    /**
                     * Format: date-time
                     * @description Created at or after this time
                     */
                    since: string;
                } | {
                    /** @constant */
                    kind: "backfill";
                    endpointId: string;
                    /**
                     * Format: date-time
                     * @description Created at or after this time
                     */
                    since: string;
                };
            };
        };
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listPortalSessions: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSessionPage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createPortalSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description How long the link and the session it opens last, 300 to 86400 seconds (default 3600)
                     * @default 3600
                     */
                    expiresInSeconds?: number;
                    /**
                     * @description The customer may look but change nothing (and does not see signing secrets)
                     * @default false
                     */
                    readOnly?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedPortalSession"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    revokePortalSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSession"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getStats: {
        parameters: {
            query?: {
                appId?: string;
                endpointId?: string;
                /** @description Default: one hour before `to` */
                from?: string;
                /** @description Default: now */
                to?: string;
                /** @description Width of one series point; a multiple of 60 (default chosen from the range) */
                bucketSeconds?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Stats"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getEndpointStats: {
        parameters: {
            query?: {
                /** @description Default: one hour before `to` */
                from?: string;
                /** @description Default: now */
                to?: string;
                /** @description Width of one series point; a multiple of 60 (default chosen from the range) */
                bucketSeconds?: number;
            };
            header?: never;
            path: {
                appId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointStats"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyPage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Limit the key to this app; omit for deployment-wide */
                    appId?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listOperationalEndpoints: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperationalEndpointPage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createOperationalEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http or https URL: your receiver, or a Slack/PagerDuty incoming webhook */
                    url: string;
                    description?: string;
                    /** @description Operational event types to receive; empty or omitted = all */
                    eventTypes?: ("endpoint.disabled" | "endpoint.enabled" | "endpoint.circuit_opened" | "endpoint.circuit_closed" | "endpoint.failing" | "endpoint.recovered" | "delivery.dead" | "alert.fired" | "alert.resolved" | "job.finished" | "issue.reminder" | "issue.reopened" | "issue.resolved" | "audit.sensitive_change")[];
                    scopeAppId?: string | null;
                    payloadTemplate?: string | null;
                    headers?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperationalEndpointWithSecret"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getOperationalEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperationalEndpoint"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    deleteOperationalEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    updateOperationalEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url?: string;
                    description?: string;
                    /** @description Operational event types to receive; empty or omitted = all */
                    eventTypes?: ("endpoint.disabled" | "endpoint.enabled" | "endpoint.circuit_opened" | "endpoint.circuit_closed" | "endpoint.failing" | "endpoint.recovered" | "delivery.dead" | "alert.fired" | "alert.resolved" | "job.finished" | "issue.reminder" | "issue.reopened" | "issue.resolved" | "audit.sensitive_change")[];
                    scopeAppId?: string | null;
                    payloadTemplate?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperationalEndpoint"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listOperationalEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
                appId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperationalEventRecordPage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listIssues: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
                appId?: string;
                /** @description unresolved = open or acknowledged; omitted = all */
                status?: "open" | "acknowledged" | "resolved" | "unresolved";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuePage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    countIssues: {
        parameters: {
            query?: {
                appId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssueCounts"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getIssue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                issueId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssueDetail"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    acknowledgeIssue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                issueId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    resolveIssue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                issueId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    reopenIssue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                issueId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    muteIssue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                issueId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description How long to send no notification about the issue: 1 minute to 30 days */
                    minutes: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    unmuteIssue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                issueId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Issue"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listAlertRules: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRulePage"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description success_rate_below: threshold in percent over windowMinutes; oldest_waiting_above: threshold in seconds; dead_per_hour_above: threshold in dead deliveries over the last hour
                     * @enum {string}
                     */
                    kind: "success_rate_below" | "oldest_waiting_above" | "dead_per_hour_above";
                    threshold: number;
                    /** @description success_rate_below only; default 15 */
                    windowMinutes?: number;
                    description?: string;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    deleteAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    updateAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    threshold?: number;
                    windowMinutes?: number;
                    description?: string;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            500: components["responses"]["Error500"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                memberId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                memberId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description owner: members and settings, and everything an admin does; admin: everything operational; developer: apps, endpoints, event types, messages and replays within its apps; viewer: read only
                     * @enum {string}
                     */
                    role?: "owner" | "admin" | "developer" | "viewer";
                    /** @description The apps the role is held to; empty: every app */
                    appIds?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listMemberSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                memberId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberSessionList"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    revokeMemberSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                memberId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedSessions"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationList"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /**
                     * @description owner: members and settings, and everything an admin does; admin: everything operational; developer: apps, endpoints, event types, messages and replays within its apps; viewer: read only
                     * @enum {string}
                     */
                    role: "owner" | "admin" | "developer" | "viewer";
                    /** @description The apps the role is held to; empty: every app */
                    appIds?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedInvitation"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            409: components["responses"]["Error409"];
            413: components["responses"]["Error413"];
            415: components["responses"]["Error415"];
            422: components["responses"]["Error422"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            404: components["responses"]["Error404"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 250 (default 50) */
                limit?: number;
                /** @description The nextCursor of the previous page; omit for the first page */
                cursor?: string;
                /** @description Only changes to this app and what it holds */
                appId?: string;
                /** @description e.g. endpoint.secret_rotated; a prefix ending in "." (endpoint.) matches a family */
                action?: string;
                /** @description app, endpoint, event_type, job, delivery, message, api_key, ... */
                resourceType?: string;
                resourceId?: string;
                /** @description The user's, API key's or portal session's id */
                actorId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            400: components["responses"]["Error400"];
            401: components["responses"]["Error401"];
            403: components["responses"]["Error403"];
            429: components["responses"]["Error429"];
            500: components["responses"]["Error500"];
        };
    };
    operationalEvent_endpoint_disabled: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EndpointDisabledEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_endpoint_enabled: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EndpointEnabledEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_endpoint_circuit_opened: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EndpointCircuitOpenedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_endpoint_circuit_closed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EndpointCircuitClosedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_endpoint_failing: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EndpointFailingEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_endpoint_recovered: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EndpointRecoveredEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_delivery_dead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeliveryDeadEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_alert_fired: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertFiredEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_alert_resolved: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertResolvedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_job_finished: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JobFinishedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_issue_reminder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueReminderEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_issue_reopened: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueReopenedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_issue_resolved: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueResolvedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    operationalEvent_audit_sensitive_change: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuditSensitiveChangeEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
