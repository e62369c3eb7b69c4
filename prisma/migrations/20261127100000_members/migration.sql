-- Members and roles (issue 24): the admin users become members with a role, optionally held to some
-- apps; invitations by link; sessions with an idle lifetime and a list to revoke from; an optional TOTP
-- second factor; API keys record who created them. The admin user that exists already (the one npm start
-- creates) becomes the owner.

ALTER TABLE hookline.admin_users
  ADD COLUMN role text NOT NULL DEFAULT 'viewer'
    CONSTRAINT admin_users_role_check CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
  -- Empty: every app. App ids are not foreign keys: a deleted app leaves an id that matches nothing,
  -- and no table here joins across apps (DESIGN.md, "Scale").
  ADD COLUMN app_ids text[] NOT NULL DEFAULT '{}',
  -- Base32 TOTP secret; enabled once the member proved with a code that their authenticator has it.
  ADD COLUMN totp_secret text,
  ADD COLUMN totp_enabled_at timestamptz,
  -- The last 30-second step a code was accepted for: a code is good once (RFC 6238, section 5.2).
  ADD COLUMN totp_last_step bigint;

UPDATE hookline.admin_users SET role = 'owner';

ALTER TABLE hookline.admin_sessions
  ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN user_agent text,
  ADD COLUMN ip text;

CREATE INDEX admin_sessions_user_id_idx ON hookline.admin_sessions (user_id);

CREATE TABLE hookline.invitations (
  id           text PRIMARY KEY DEFAULT hookline.new_id('inv'),
  email        text NOT NULL,
  role         text NOT NULL CONSTRAINT invitations_role_check CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
  app_ids      text[] NOT NULL DEFAULT '{}',
  -- sha256 of the link's token: the link is shown once, like an API key.
  token_hash   text NOT NULL,
  invited_by   text REFERENCES hookline.admin_users (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  accepted_at  timestamptz,
  revoked_at   timestamptz,
  CONSTRAINT invitations_token_hash_key UNIQUE (token_hash)
);

ALTER TABLE hookline.api_keys
  ADD COLUMN created_by text REFERENCES hookline.admin_users (id) ON DELETE SET NULL;
