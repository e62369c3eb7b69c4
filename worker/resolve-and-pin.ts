// Resolves a receiver's host name once, checks every address against the address policy, and
// connects to the checked address itself. Checking and then letting the HTTP client resolve again
// would leave a gap for DNS rebinding (a name that answers a public address to the check and
// 169.254.169.254 to the connect); connecting to the address we checked closes it.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
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

/** An undici connector that connects only to addresses the policy allows, pinned per connection. */
export function createPinnedConnector(
  policy: AddressPolicyOptions,
  options: { connectTimeoutMs: number; resolve?: Resolver },
): buildConnector.connector {
  const connect = buildConnector({ timeout: options.connectTimeoutMs });
  return (connectOptions, callback) => {
    const hostname = connectOptions.hostname.replace(/^\[|\]$/g, '');
    resolveAllowedAddress(hostname, policy, options.resolve).then(
      (address) =>
        connect(
          {
            ...connectOptions,
            hostname: address,
            // TLS must still present and verify the receiver's name, not the address.
            servername: connectOptions.servername ?? (isIP(hostname) ? undefined : hostname),
          },
          callback,
        ),
      (error: Error) => callback(error, null),
    );
  };
}
