// The SSRF policy: which addresses the delivery worker may connect to. Endpoint URLs come from tenants, so
// a URL (or a DNS name that resolves) pointing at loopback, the VPC or a cloud metadata service would turn
// Hookline into a proxy into our own network. Callers must check every resolved address here and then
// connect to exactly the address they checked, or a second DNS answer (rebinding) slips past the check.
import { BlockList, isIP } from 'node:net';

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string; range: string };
export type UrlTargetVerdict = AddressVerdict & { literal: string | null };

// Only loopback (local development, tests with receivers on 127.0.0.1) and private networks (self-hosted
// receivers next to Hookline) are configurable. Link-local and cloud metadata stay refused under every
// option: 169.254.169.254 and friends hand out instance credentials, and no real receiver lives on a
// link-local address. The metadata addresses inside CGNAT and ULA space (Alibaba's 100.100.100.200, AWS's
// fd00:ec2::254) are listed first so that allowPrivate cannot open them.
export type AddressPolicyOptions = { allowLoopback: boolean; allowPrivate: boolean };

type Tier = 'loopback' | 'private' | 'never';
type Rule = { cidr: string; range: string; tier: Tier; source: string };

// First match wins, so specific entries precede the ranges that contain them.
const RULES: readonly Rule[] = [
  { cidr: '169.254.169.254/32', range: 'cloud-metadata', tier: 'never', source: 'AWS, GCP, Azure, OCI IMDS' },
  { cidr: '169.254.170.2/32', range: 'cloud-metadata', tier: 'never', source: 'AWS ECS task metadata' },
  { cidr: '169.254.170.23/32', range: 'cloud-metadata', tier: 'never', source: 'AWS EKS Pod Identity' },
  { cidr: '100.100.100.200/32', range: 'cloud-metadata', tier: 'never', source: 'Alibaba Cloud metadata' },
  { cidr: '192.0.0.192/32', range: 'cloud-metadata', tier: 'never', source: 'Oracle Cloud metadata' },
  // A public address, but only meaningful inside Azure, where it is the host's WireServer (VM agent config).
  { cidr: '168.63.129.16/32', range: 'cloud-metadata', tier: 'never', source: 'Azure WireServer' },
  { cidr: 'fd00:ec2::254/128', range: 'cloud-metadata', tier: 'never', source: 'AWS IMDS over IPv6' },
  { cidr: 'fd00:ec2::23/128', range: 'cloud-metadata', tier: 'never', source: 'AWS EKS Pod Identity' },
  { cidr: 'fd20:ce::254/128', range: 'cloud-metadata', tier: 'never', source: 'GCP metadata over IPv6' },
  // Linux routes a connect() to 0.0.0.0 to the local host, so it stays refused even with allowLoopback.
  { cidr: '0.0.0.0/32', range: 'unspecified', tier: 'never', source: 'RFC 1122' },
  { cidr: '0.0.0.0/8', range: 'this-network', tier: 'never', source: 'RFC 791' },
  { cidr: '10.0.0.0/8', range: 'private', tier: 'private', source: 'RFC 1918' },
  { cidr: '100.64.0.0/10', range: 'cgnat', tier: 'private', source: 'RFC 6598' },
  { cidr: '127.0.0.0/8', range: 'loopback', tier: 'loopback', source: 'RFC 1122' },
  { cidr: '169.254.0.0/16', range: 'link-local', tier: 'never', source: 'RFC 3927' },
  { cidr: '172.16.0.0/12', range: 'private', tier: 'private', source: 'RFC 1918' },
  { cidr: '192.0.0.0/24', range: 'ietf-protocol', tier: 'never', source: 'RFC 6890' },
  { cidr: '192.0.2.0/24', range: 'documentation', tier: 'never', source: 'RFC 5737' },
  { cidr: '192.88.99.0/24', range: '6to4-relay', tier: 'never', source: 'RFC 7526' },
  { cidr: '192.168.0.0/16', range: 'private', tier: 'private', source: 'RFC 1918' },
  { cidr: '198.18.0.0/15', range: 'benchmarking', tier: 'never', source: 'RFC 2544' },
  { cidr: '198.51.100.0/24', range: 'documentation', tier: 'never', source: 'RFC 5737' },
  { cidr: '203.0.113.0/24', range: 'documentation', tier: 'never', source: 'RFC 5737' },
  { cidr: '224.0.0.0/4', range: 'multicast', tier: 'never', source: 'RFC 5771' },
  { cidr: '255.255.255.255/32', range: 'broadcast', tier: 'never', source: 'RFC 919' },
  { cidr: '240.0.0.0/4', range: 'reserved', tier: 'never', source: 'RFC 1112' },
  { cidr: '::/128', range: 'unspecified', tier: 'never', source: 'RFC 4291' },
  { cidr: '::1/128', range: 'loopback', tier: 'loopback', source: 'RFC 4291' },
  { cidr: '100::/64', range: 'discard', tier: 'never', source: 'RFC 6666' },
  { cidr: 'fc00::/7', range: 'ipv6-ula', tier: 'private', source: 'RFC 4193' },
  { cidr: 'fe80::/10', range: 'ipv6-link-local', tier: 'never', source: 'RFC 4291' },
  { cidr: 'ff00::/8', range: 'multicast', tier: 'never', source: 'RFC 4291' },
  { cidr: '2001:db8::/32', range: 'documentation', tier: 'never', source: 'RFC 3849' },
  { cidr: '3fff::/20', range: 'documentation', tier: 'never', source: 'RFC 9637' },
  { cidr: '2001:2::/48', range: 'benchmarking', tier: 'never', source: 'RFC 5180' },
  { cidr: '2001:10::/28', range: 'orchid', tier: 'never', source: 'RFC 4843' },
  { cidr: '2001:20::/28', range: 'orchid', tier: 'never', source: 'RFC 7343' },
];

const COMPILED = RULES.map((rule) => {
  const [network = '', bits = ''] = rule.cidr.split('/');
  const family = isIP(network) === 6 ? ('ipv6' as const) : ('ipv4' as const);
  const list = new BlockList();
  list.addSubnet(network, Number(bits), family);
  return { ...rule, family, list };
});

export function checkAddress(ip: string, options: AddressPolicyOptions): AddressVerdict {
  // A zone id ("fe80::1%eth0") only selects an interface for scoped IPv6 addresses; the scope itself
  // is judged from the address.
  const zone = ip.indexOf('%');
  const bare = zone === -1 ? ip : ip.slice(0, zone);
  const family = isIP(bare);
  if (family === 0 || (zone !== -1 && (family !== 6 || zone === ip.length - 1))) {
    return { allowed: false, range: 'invalid', reason: `${JSON.stringify(ip)} is not an IP address` };
  }
  if (family === 4) return judge(ip, bare, 'ipv4', options) ?? { allowed: true };

  const groups = ipv6Groups(bare);
  const embedded = embeddedIPv4(groups);
  if (embedded === 'ambiguous') {
    const layout = 'in a site-specific layout, so the IPv4 address it reaches is unknown';
    const reason = `${ip} is in the nat64-local range (64:ff9b:1::/48, RFC 8215) ${layout}`;
    return { allowed: false, range: 'nat64-local', reason };
  }
  if (embedded) {
    const verdict = judge(embedded.ipv4, embedded.ipv4, 'ipv4', options) ?? { allowed: true };
    if (verdict.allowed) return verdict;
    return { ...verdict, reason: `${ip} embeds ${embedded.ipv4} (${embedded.via}), and ${verdict.reason}` };
  }
  const verdict = judge(ip, bare, 'ipv6', options);
  if (verdict) return verdict;
  // IANA has allocated only 2000::/3 for global unicast (RFC 4291 section 2.4); the rest of the space that
  // no rule names (fec0::/10 site-local, 5f00::/16 SRv6 SIDs, unassigned blocks) is refused.
  if (((groups[0] ?? 0) & 0xe000) === 0x2000) return { allowed: true };
  const reason = `${ip} is in the reserved range (outside 2000::/3, the IPv6 global unicast space, RFC 4291)`;
  return { allowed: false, range: 'reserved', reason };
}

// The verdict of the first rule containing the address, or null when no rule does.
function judge(shown: string, bare: string, family: 'ipv4' | 'ipv6', options: AddressPolicyOptions) {
  const rule = COMPILED.find((candidate) => candidate.family === family && candidate.list.check(bare, family));
  if (!rule) return null;
  if (rule.tier === 'loopback' && options.allowLoopback) return { allowed: true } as const;
  if (rule.tier === 'private' && options.allowPrivate) return { allowed: true } as const;
  // Named as an operator sets it: the environment variable, not the option's name in the code.
  const variable = rule.tier === 'loopback' ? 'HOOKLINE_ALLOW_LOOPBACK' : 'HOOKLINE_ALLOW_PRIVATE_NETWORKS';
  const hint = rule.tier === 'never' ? '' : `; set ${variable}=true (and restart) to permit it`;
  const reason = `${shown} is in the ${rule.range} range (${rule.cidr}, ${rule.source})${hint}`;
  return { allowed: false, range: rule.range, reason } as const;
}

// Addresses that carry an IPv4 destination inside IPv6. Each is judged by the IPv4 address it reaches, so
// ::ffff:169.254.169.254 or 64:ff9b::a9fe:a9fe cannot smuggle the metadata service past the IPv4 table.
function embeddedIPv4(g: readonly number[]): { ipv4: string; via: string } | 'ambiguous' | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const v4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0xffff) return { ipv4: v4(g6, g7), via: 'IPv4-mapped, RFC 4291' };
  // ::/96 without :: and ::1, which are IPv6's own unspecified and loopback addresses.
  if (firstFiveZero && g5 === 0 && (g6 !== 0 || g7 > 1)) return { ipv4: v4(g6, g7), via: 'IPv4-compatible, RFC 4291' };
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return { ipv4: v4(g6, g7), via: 'NAT64, RFC 6052' };
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) {
    // RFC 8215 lets each site pick its prefix length inside the /48, which moves the IPv4 bits (RFC 6052
    // section 2.2). When bits 48-95 are zero, every layout but /96 yields an address in 0.0.0.0/8, so the
    // last 32 bits are the only meaningful reading; any other address is refused as ambiguous.
    return g3 === 0 && g4 === 0 && g5 === 0 ? { ipv4: v4(g6, g7), via: 'NAT64 local-use, RFC 8215' } : 'ambiguous';
  }
  if (g0 === 0x2002) return { ipv4: v4(g1, g2), via: '6to4, RFC 3056' };
  // Teredo stores the client's IPv4 address with every bit inverted (RFC 4380 section 4).
  if (g0 === 0x2001 && g1 === 0) return { ipv4: v4(~g6 & 0xffff, ~g7 & 0xffff), via: 'Teredo, RFC 4380' };
  return null;
}

// Expects an address that isIP() accepted, without zone id.
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  const parse = (side: string | undefined) => (side ? side.split(':').map((hex) => parseInt(hex, 16)) : []);
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

// RFC 5952: lowercase, no leading zeros, the longest run (first on a tie) of two or more zero groups as
// "::". Hex rather than dotted tails, matching what WHATWG URL produces for the same address.
function formatIPv6(groups: readonly number[]): string {
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > best.length) best = { start, length };
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start === -1) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/**
 * The canonical IP string if `host` (a URL hostname or a raw host string) is an IP literal in any
 * notation, else null: the host is a DNS name, whose resolved addresses the worker checks one by one.
 * IPv4 follows inet_aton(3) as WHATWG URL does: 1-4 parts, each decimal, octal (leading 0) or hex (0x),
 * the last part filling the remaining bytes ("127.1", "2130706433"), plus one trailing dot.
 * Numeric hosts out of range ("256.1.1.1", "4294967296") return null rather than a verdict: no parser
 * turns them into an address, `new URL()` rejects them, and a DNS lookup of one fails.
 * A zone id on an IPv6 literal is dropped: it cannot make a scoped address global or vice versa.
 */
export function parseHostLiteral(host: string): string | null {
  const inner = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (inner !== host || host.includes(':')) {
    const bare = inner.split('%')[0] ?? '';
    return isIP(bare) === 6 ? formatIPv6(ipv6Groups(bare)) : null;
  }
  const parts = host.split('.');
  if (parts.length > 1 && parts.at(-1) === '') parts.pop();
  if (parts.length > 4) return null;
  const numbers = parts.map(parseInetNumber);
  const last = numbers.pop();
  if (last === null || last === undefined || numbers.some((n) => n === null || n > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  const value = numbers.reduce<number>((sum, n, i) => sum + (n ?? 0) * 256 ** (3 - i), last);
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
}

function parseInetNumber(part: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part, 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return null;
}

/**
 * Screens an endpoint URL before any DNS lookup: only http and https, and an IP-literal host is judged
 * here. For a DNS name the result is allowed with `literal: null`; the worker must still check each
 * resolved address with checkAddress() and connect to the one it checked.
 */
export function checkUrlTarget(url: string | URL, options: AddressPolicyOptions): UrlTargetVerdict {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return { allowed: false, range: 'invalid', reason: `${JSON.stringify(url)} is not a valid URL`, literal: null };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    const reason = `${parsed.protocol.slice(0, -1)} URLs are refused; webhooks are delivered over http or https only`;
    return { allowed: false, range: 'scheme', reason, literal: null };
  }
  const literal = parseHostLiteral(parsed.hostname);
  if (literal === null) return { allowed: true, literal: null };
  return { ...checkAddress(literal, options), literal };
}
