-- The customer's portal (issue 14). An operator's backend creates a portal session for one app
-- (POST /api/v1/apps/{appId}/portal-sessions) and hands its URL to the app's customer; opening the URL
-- exchanges the token for an HttpOnly cookie (lib/portal). Only the token's sha256 is stored, as for
-- API keys and admin sessions: the token is 32 random bytes, so a fast hash is enough.
--
-- Revocation is a timestamp, not a delete, so the operator's list still shows who had access and until
-- when. Rows are small (~200 bytes) and one is created per portal page the operator serves; expired
-- sessions can be pruned by age without affecting anything else (nothing references them).
CREATE TABLE hookline.portal_sessions (
  id          text PRIMARY KEY DEFAULT hookline.new_id('psess'),
  app_id      text NOT NULL REFERENCES hookline.apps (id) ON DELETE CASCADE,
  token_hash  text NOT NULL,
  read_only   boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  CONSTRAINT portal_sessions_token_hash_key UNIQUE (token_hash)
);

-- The operator's list: one app's sessions, newest first (cursor pagination on created_at, id).
CREATE INDEX portal_sessions_app_id_created_at_idx ON hookline.portal_sessions (app_id, created_at DESC, id DESC);

-- Origins allowed to frame the app's portal (CSP frame-ancestors). Empty, the default for every
-- existing app, keeps the portal unframeable, as the admin dashboard always is.
ALTER TABLE hookline.apps ADD COLUMN portal_frame_ancestors text[] NOT NULL DEFAULT '{}';
