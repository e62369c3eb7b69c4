// The SQL surface again on PostgreSQL 15 (vitest.config.ts's `pg15` project): users bring their own
// PostgreSQL, 14 or newer, whose planner and catalog are not the embedded 18's. Debian's PostgreSQL 15,
// where the machine has it; the project is left out (with a note) where it does not.
import type { TestProject } from 'vitest/node';
import { setUpServer } from './global-setup';
import { DEBIAN_15_BIN } from './postgres-servers';

export default function setup(project: TestProject) {
  return setUpServer(project, { prefix: 'hookline-test-pg15-', useDatabaseUrl: false, binDir: DEBIAN_15_BIN });
}
