-- Per-app branding of the customer portal (issue 23, item 11): the name customers see instead of the
-- app's own (which is the operator's internal name), a logo and an accent colour. Set by the operator
-- (PATCH /api/v1/apps/{appId}, the dashboard's app settings); NULL: the portal's default look.
--
-- The API validates each (lib/contract/schemas/apps.ts); these checks hold the two that keep the portal
-- safe to render for anything that writes the table directly: the logo is an https URL (the portal's
-- Content-Security-Policy allows images from its origin only) and the colour is a 6-digit hex (it goes
-- into a style attribute). Nullable columns without defaults: adding them rewrites no rows.
ALTER TABLE hookline.apps
  ADD COLUMN portal_name text CHECK (char_length(portal_name) BETWEEN 1 AND 200),
  ADD COLUMN portal_logo_url text CHECK (portal_logo_url ~ '^https://[^\s"''<>;,]+$' AND char_length(portal_logo_url) <= 2000),
  ADD COLUMN portal_accent_color text CHECK (portal_accent_color ~ '^#[0-9a-f]{6}$');
