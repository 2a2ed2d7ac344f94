package egress

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// Policy decides which addresses outbound connections may reach. The zero Policy refuses
// every internal address and allows every public one.
type Policy struct {
	hosts map[string]bool // lower-case host names reachable whatever they resolve to
	nets  []netip.Prefix  // networks reachable although internal
}

// ParsePolicy reads APP_EGRESS_ALLOW: comma-separated host names (exact match, any case),
// IP addresses or CIDR networks, e.g. "localhost,127.0.0.0/8,mail.corp.example,10.1.2.3".
// An empty string is the zero Policy. Errors name the entry that is wrong.
func ParsePolicy(s string) (Policy, error) {
	var p Policy
	for _, entry := range strings.Split(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		if strings.Contains(entry, "/") {
			prefix, err := netip.ParsePrefix(entry)
			if err != nil {
				return Policy{}, fmt.Errorf("APP_EGRESS_ALLOW entry %q is not a CIDR network: %v", entry, err)
			}
			p.nets = append(p.nets, prefix.Masked())
			continue
		}
		if addr, err := netip.ParseAddr(strings.Trim(entry, "[]")); err == nil {
			addr = addr.Unmap()
			p.nets = append(p.nets, netip.PrefixFrom(addr, addr.BitLen()))
			continue
		}
		host := strings.TrimSuffix(strings.ToLower(entry), ".")
		if !validHostName(host) {
			return Policy{}, fmt.Errorf("APP_EGRESS_ALLOW entry %q is not a host name, IP address or CIDR network", entry)
		}
		if p.hosts == nil {
			p.hosts = map[string]bool{}
		}
		p.hosts[host] = true
	}
	return p, nil
}

func validHostName(host string) bool {
	if host == "" || len(host) > 253 {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// AllowsHost tells whether host is allow-listed by name, so that any address it resolves to
// may be reached.
func (p Policy) AllowsHost(host string) bool {
	return p.hosts[strings.TrimSuffix(strings.ToLower(host), ".")]
}

// Check returns a *RefusedError when addr, which host resolved to, may not be reached.
func (p Policy) Check(host string, addr netip.Addr) error {
	if p.AllowsHost(host) {
		return nil
	}
	addr = addr.Unmap().WithZone("")
	for _, n := range p.nets {
		if n.Contains(addr) {
			return nil
		}
	}
	if kind := internalKind(addr); kind != "" {
		return &RefusedError{Host: host, Addr: addr, Reason: kind + " address"}
	}
	return nil
}

// CheckHost resolves host and checks every address it has. It is for connections that
// cannot go through DialContext; unlike the dialer it leaves a window between the check and
// the connection in which the name may resolve differently.
func (p Policy) CheckHost(ctx context.Context, host string) error {
	if p.AllowsHost(host) {
		return nil
	}
	if addr, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return p.Check(host, addr)
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return err
	}
	for _, addr := range addrs {
		if err := p.Check(host, addr); err != nil {
			return err
		}
	}
	return nil
}

// CheckLiteral refuses, without resolving anything, a host the policy refuses whatever DNS
// says: an internal IP literal, or a localhost name (RFC 6761 has those resolve to
// loopback), unless allow-listed. Other names pass; only a connection can tell where they
// lead. It lets a configuration be refused as it is written rather than when it is used.
func (p Policy) CheckLiteral(host string) error {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if p.AllowsHost(host) {
		return nil
	}
	if addr, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return p.Check(host, addr)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return p.Check(host, netip.IPv6Loopback())
	}
	return nil
}

// dialTimeout bounds DNS resolution plus the TCP handshake of one connection.
const dialTimeout = 10 * time.Second

// DialContext connects like net.Dialer.DialContext but refuses, after DNS resolution and
// for every address tried, what the policy does not allow. It fits http.Transport and any
// client that takes a dial function.
func (p Policy) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}
	if !p.AllowsHost(host) {
		d.Control = func(_, resolved string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(resolved)
			if err != nil {
				return &RefusedError{Host: host, Reason: "unparseable address " + resolved}
			}
			return p.Check(host, ap.Addr())
		}
	}
	return d.DialContext(ctx, network, address)
}

// RefusedError is a connection the policy refused.
type RefusedError struct {
	Host   string     // the host name or literal the connection was for
	Addr   netip.Addr // the address it resolved to; invalid when the refusal is not about one
	Reason string     // e.g. "loopback address", "unsupported scheme ftp"
}

func (e *RefusedError) Error() string {
	if e.Addr.IsValid() && e.Addr.String() != e.Host {
		return fmt.Sprintf("egress refused: %s resolves to %s, a %s", e.Host, e.Addr, e.Reason)
	}
	return fmt.Sprintf("egress refused: %s is a %s", e.Host, e.Reason)
}

// internalRanges are the networks a user-configured target may not reach unless
// allow-listed. Public unicast space is everything else.
var internalRanges = []struct {
	prefix netip.Prefix
	kind   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (CGNAT)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"}, // includes 255.255.255.255
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("fc00::/7"), "private"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "private"}, // deprecated site-local
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// nat64 is the well-known NAT64 prefix: its addresses reach the IPv4 address in their
// last 32 bits, which is checked instead.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// internalKind names the internal range addr is in, or returns "" for a public address.
func internalKind(addr netip.Addr) string {
	if nat64.Contains(addr) {
		b := addr.As16()
		addr = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	for _, r := range internalRanges {
		if r.prefix.Contains(addr) {
			return r.kind
		}
	}
	return ""
}
