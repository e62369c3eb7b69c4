// Finds the postmaster of a PostgreSQL given by --database-url when it runs on this machine, so its
// processes' CPU can be read from /proc as for the embedded server. Our own backend's command line
// names the client's port ("postgres: user db 127.0.0.1(54321) idle"), which proves the pid we were
// told is the process serving this very connection (not a namesake in another pid namespace, as
// with a server in a container); its parent is the postmaster.
import { readFile } from 'node:fs/promises';
import type pg from 'pg';

export async function findLocalPostmaster(client: pg.Client): Promise<number | null> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backendPid = rows[0]!.pid;
  const localPort = (client as unknown as { connection: { stream: { localPort?: number } } }).connection.stream
    .localPort;
  const cmdline = await readFile(`/proc/${backendPid}/cmdline`, 'utf8').catch(() => '');
  if (localPort === undefined || !cmdline.includes(`(${localPort})`)) return null;
  const stat = await readFile(`/proc/${backendPid}/stat`, 'utf8').catch(() => '');
  // After "pid (comm) state": the parent pid.
  const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return Number.isInteger(parent) && parent > 1 ? parent : null;
}
