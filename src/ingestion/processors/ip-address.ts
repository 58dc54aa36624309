/**
 * A user's IP address split into the IPv4 and IPv6 columns, or neither when it does not parse
 * (PII scrubbing leaves "[ip]" and the like). A scoped IPv6 address ("fe80::1%eth0") is dropped:
 * ClickHouse's IPv6 column cannot hold the scope.
 */
import { isIPv4, isIPv6 } from "node:net";

export interface IpColumns {
  readonly ip_address_v4: string | null;
  readonly ip_address_v6: string | null;
}

const NEITHER: IpColumns = { ip_address_v4: null, ip_address_v6: null };

export function ipColumns(text: string | null): IpColumns {
  if (text === null || text === "") return NEITHER;
  if (isIPv4(text)) return { ip_address_v4: text, ip_address_v6: null };
  if (!text.includes("%") && isIPv6(text)) return { ip_address_v4: null, ip_address_v6: text };
  return NEITHER;
}
