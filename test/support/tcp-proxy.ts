// A TCP proxy on 127.0.0.1 in front of PostgreSQL whose network path a test can cut the way a NAT
// timeout, a load-balancer failover or a VM migration does: packets stop, nothing is closed.
//   goSilent():  every open connection stops passing bytes in both directions (no FIN, no RST), and
//                new connections are accepted but never answered.
//   goDown():    the server goes away: every open connection is cut, and new ones are closed as soon
//                as they are accepted, as when PostgreSQL is stopped or its host is gone.
//   reconnect(): new connections work again; the old ones stay silent for good, as connections
//                whose state a NAT has forgotten do.
//   holdReplies() / passReplies(): the server's answers wait in the proxy until passed on, as over a
//                slow network: a statement runs and commits, and its client hears of it later.
import { createServer, createConnection, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** postgresql:// URL through the proxy, from one that points at the real server. */
  url(direct: string): string;
  goSilent(): void;
  goDown(): void;
  reconnect(): void;
  holdReplies(): void;
  passReplies(): void;
  /** Connections accepted so far (new connections show the client reconnecting). */
  accepted(): number;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  server: Socket | null;
  silent: boolean;
}

/** The server's answers held back by holdReplies(), per link, in order. */
type HeldReplies = Map<Link, Buffer[]>;

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const links = new Set<Link>();
  let silentForNew = false;
  let down = false;
  let accepted = 0;
  let held: HeldReplies | null = null;

  const server = createServer((client) => {
    accepted++;
    if (down) {
      client.destroy();
      return;
    }
    const link: Link = { client, server: null, silent: silentForNew };
    links.add(link);
    client.on('error', () => {});
    client.on('close', () => {
      link.server?.destroy();
      links.delete(link);
    });
    if (link.silent) return; // accepted, never answered: a black hole
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    link.server = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => {
      if (!link.silent) client.destroy();
    });
    // Forwarding checks the flag per chunk: a silenced link drops what arrives, and sends nothing.
    client.on('data', (chunk) => {
      if (!link.silent) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (link.silent) return;
      if (held) held.set(link, [...(held.get(link) ?? []), chunk]);
      else client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    url(direct) {
      const url = new URL(direct);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    goSilent() {
      silentForNew = true;
      for (const link of links) link.silent = true;
    },
    goDown() {
      down = true;
      for (const link of links) {
        link.client.destroy();
        link.server?.destroy();
      }
    },
    reconnect() {
      silentForNew = false;
      down = false;
    },
    holdReplies() {
      held ??= new Map();
    },
    passReplies() {
      const replies = held;
      held = null;
      for (const [link, chunks] of replies ?? []) for (const chunk of chunks) link.client.write(chunk);
    },
    accepted: () => accepted,
    async close() {
      for (const link of links) {
        link.client.destroy();
        link.server?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
