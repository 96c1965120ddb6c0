/**
 * Trusted reverse proxies (`trustedProxies`) and the client address of a request behind them:
 * `X-Forwarded-For` is believed only from a trusted proxy.
 */
import { BlockList, isIP } from 'node:net';

/**
 * Parses `trustedProxies`: comma-separated IPv4/IPv6 addresses or CIDR ranges.
 * @throws Error naming an entry that is neither
 */
export function parseTrustedProxies(value: string): BlockList {
  const list = new BlockList();
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address, bits] = entry.split('/');
    const family = isIP(address);
    if (!family) throw new Error(`'${entry}' is not an IP address or CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) throw new Error(`'${entry}' has a bad prefix length`);
      list.addSubnet(address, prefix, type);
    }
  }
  return list;
}

/** `::ffff:10.0.0.1` -> `10.0.0.1` (IPv4 clients of a dual-stack socket). */
export function plainAddress(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** Whether an address is one of the trusted proxies. */
export function isTrustedProxy(list: BlockList, ip: string): boolean {
  const family = isIP(ip);
  return family !== 0 && list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address: the connection's, or, when that is a trusted proxy, the rightmost
 * `X-Forwarded-For` entry that is not a trusted proxy.
 * @param remote the connection's address (undefined for in-process requests)
 */
export function clientIp(remote: string | undefined, forwardedFor: string | null, proxies: BlockList): string | undefined {
  if (!remote) return undefined;
  const peer = plainAddress(remote);
  if (!forwardedFor || !isTrustedProxy(proxies, peer)) return peer;
  const hops = forwardedFor
    .split(',')
    .map((h) => plainAddress(h.trim()))
    .filter((h) => isIP(h));
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrustedProxy(proxies, hops[i])) return hops[i];
  return hops[0] ?? peer;
}
