// `npm run migrate`: the schema step of a deploy, on its own. Applies the pending migrations of
// prisma/migrations (lib/database/migrate.ts), the payload limit, and encrypts signing secrets still in
// plaintext or under HOOKLINE_ENCRYPTION_KEY_PREVIOUS (lib/database/seal-endpoint-secrets.ts); then
// checks the database is at exactly the schema this release knows. Exits 0 when it is, 1 with the
// reason otherwise (a database migrated by a newer release names both versions).
//
// Run it before starting the new release's web servers and workers (with HOOKLINE_MIGRATE_ON_START=false
// they refuse an older schema instead of migrating it themselves). Without DATABASE_URL it migrates
// the embedded PostgreSQL in the data folder, as `npm start` would.
import { ConfigError, loadConfig } from '../lib/runtime/env';
import { MigrationError } from '../lib/database/migrate';
import { SchemaVersionError } from '../lib/database/schema-version';
import { generatedKeyWarning, getEncryptionKeys } from '../lib/runtime/secret-box';
import { connectDatabase, StartupError } from './lib/connect-database';

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  // Migrating is this command's job, whatever the start-up setting says.
  const config = { ...loadConfig(), HOOKLINE_MIGRATE_ON_START: true };
  const database = await connectDatabase(config, say);
  try {
    say(
      database.appliedMigrations.length > 0
        ? `Applied ${database.appliedMigrations.length} migration(s): ${database.appliedMigrations.join(', ')}`
        : 'No migration to apply.',
    );
    const { sealed } = database;
    const keyWarning = generatedKeyWarning(getEncryptionKeys());
    if (keyWarning) say(`Warning: ${keyWarning}`);
    say(
      `Signing secrets: ${sealed.encrypted} encrypted, ${sealed.rewrapped} moved to the current key` +
        (sealed.unknownKey ? `, ${sealed.unknownKey} under a key this process does not have (left as they are)` : ''),
    );
    say(`The database schema is at ${database.schemaVersion}.`);
    if (sealed.unknownKey) process.exitCode = 1;
  } finally {
    await database.embedded?.stop();
  }
}

main().catch((error: unknown) => {
  const known =
    error instanceof ConfigError ||
    error instanceof StartupError ||
    error instanceof MigrationError ||
    error instanceof SchemaVersionError;
  process.stderr.write(
    `\nMigration failed: ${known ? (error as Error).message : ((error as Error)?.stack ?? String(error))}\n`,
  );
  process.exit(1);
});
