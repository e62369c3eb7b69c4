// Resolves a receiver's host name once, checks every address against the address policy, and
// connects to the checked address itself. Checking and then letting the HTTP client resolve again
// would leave a gap for DNS rebinding (a name that answers a public address to the check and
// 169.254.169.254 to the connect); connecting to the address we checked closes it.
import { lookup } from 'node:dns/promises';
import { isIP, Socket } from 'node:net';
import { buildConnector, errors } from 'undici';
import { checkAddress, parseHostLiteral, type AddressPolicyOptions } from '../lib/domain/webhooks/address-policy';
import { BlockedAddressError } from './classify-error';

export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export async function resolveAllowedAddress(
  hostname: string,
  policy: AddressPolicyOptions,
  resolve: Resolver = systemResolver,
): Promise<string> {
  const literal = parseHostLiteral(hostname);
  // A name that resolves to several addresses is refused if any of them is blocked: otherwise a
  // receiver could list one public and one private address and win whenever the order flips.
  const addresses = literal ? [literal] : await resolve(hostname);
  if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no addresses`), { code: 'ENOTFOUND' });
  for (const address of addresses) {
    const verdict = checkAddress(address, policy);
    if (!verdict.allowed) throw new BlockedAddressError(`refused to connect to ${hostname}: ${verdict.reason}`);
  }
  return addresses[0]!;
}

/**
 * An undici connector that connects only to addresses the policy allows, pinned per connection.
 * connectTimeoutMs(), read as each connection starts, bounds the whole connect: the name lookup, TCP
 * and the TLS handshake together.
 * undici's own connect timeout starts only once the socket is opened and knows nothing of the lookup:
 * with it alone, an attempt against a resolver taking 1.5 s failed only after those 1.5 s, whatever
 * its deadline (test/worker/connect-deadline.test.ts).
 */
export function createPinnedConnector(
  policy: AddressPolicyOptions,
  options: { connectTimeoutMs: () => number; resolve?: Resolver },
): buildConnector.connector {
  // Only a backup: the timer below fails the connect first. Set at the largest endpoint deadline
  // (endpoints.timeout_ms <= 300,000), as the pools' headersTimeout and bodyTimeout are.
  const connect = buildConnector({ timeout: 300_000 });
  return (connectOptions, callback) => {
    const hostname = connectOptions.hostname.replace(/^\[|\]$/g, '');
    const connectTimeoutMs = options.connectTimeoutMs();
    let socket: Socket | null = null;
    let settled = false;
    const settle: typeof callback = (error, connected) => {
      if (settled) {
        // Connected after the deadline: undici was told it failed, so nothing else will use or close it.
        connected?.destroy();
        return;
      }
      settled = true;
      clearTimeout(timer);
      if (error) callback(error, null);
      else callback(null, connected!);
    };
    const timer = setTimeout(() => {
      settle(
        new errors.ConnectTimeoutError(
          `not connected to ${hostname} within ${connectTimeoutMs} ms (name lookup, TCP and TLS)`,
        ),
        null,
      );
      // A TCP connect or TLS handshake still under way is given up: its socket is closed now.
      socket?.destroy();
    }, connectTimeoutMs);
    resolveAllowedAddress(hostname, policy, options.resolve).then(
      (address) => {
        // The lookup outlived the deadline: the attempt already failed, and no socket is opened for it.
        if (settled) return;
        // undici's connector returns the socket it opened, though its types say void.
        const opened: unknown = connect(
          {
            ...connectOptions,
            hostname: address,
            // TLS must still present and verify the receiver's name, not the address.
            servername: connectOptions.servername ?? (isIP(hostname) ? undefined : hostname),
          },
          settle,
        );
        if (opened instanceof Socket) socket = opened;
      },
      (error: Error) => settle(error, null),
    );
  };
}
