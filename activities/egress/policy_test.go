package egress

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestParsePolicyAcceptsHostsAddressesAndNetworks(t *testing.T) {
	p, err := ParsePolicy(" Localhost. , 127.0.0.0/8,10.1.2.3,[::1], mail.corp.example ,,")
	if err != nil {
		t.Fatalf("ParsePolicy: %v", err)
	}
	for _, host := range []string{"localhost", "LOCALHOST", "mail.corp.example"} {
		if !p.AllowsHost(host) {
			t.Errorf("AllowsHost(%q) = false, want true", host)
		}
	}
	for _, addr := range []string{"127.0.0.1", "127.255.0.9", "10.1.2.3", "::1", "::ffff:127.0.0.1"} {
		if err := p.Check("example.test", netip.MustParseAddr(addr)); err != nil {
			t.Errorf("Check(%s) = %v, want allowed", addr, err)
		}
	}
	if err := p.Check("example.test", netip.MustParseAddr("10.1.2.4")); err == nil {
		t.Error("Check(10.1.2.4) allowed; only 10.1.2.3 is listed")
	}
}

func TestParsePolicyNamesTheEntryItCannotRead(t *testing.T) {
	for _, tt := range []struct{ name, in, entry string }{
		{"a network with a bad mask", "10.0.0.0/33", "10.0.0.0/33"},
		{"a URL instead of a host", "localhost, http://example.com", "http://example.com"},
		{"a host with a port", "example.com:8080", "example.com:8080"},
		{"a host with spaces inside", "exa mple.com", "exa mple.com"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePolicy(tt.in)
			if err == nil || !strings.Contains(err.Error(), `"`+tt.entry+`"`) {
				t.Fatalf("ParsePolicy(%q) error = %v, want one naming %q", tt.in, err, tt.entry)
			}
		})
	}
}

func TestTheZeroPolicyRefusesEveryInternalAddressAndAllowsPublicOnes(t *testing.T) {
	for _, tt := range []struct {
		addr, reason string
	}{
		{"127.0.0.1", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.0.0.5", "private"},
		{"172.16.4.4", "private"},
		{"192.168.1.1", "private"},
		{"fd00::1", "private"},
		{"169.254.169.254", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"100.64.0.1", "shared (CGNAT)"},
		{"255.255.255.255", "reserved"},
		{"64:ff9b::a00:1", "private"}, // NAT64 of 10.0.0.1
	} {
		t.Run(tt.addr+" is refused as "+tt.reason, func(t *testing.T) {
			err := Policy{}.Check("target.example", netip.MustParseAddr(tt.addr))
			var refused *RefusedError
			if !errors.As(err, &refused) || refused.Reason != tt.reason+" address" {
				t.Fatalf("Check = %v, want a refusal for a %s address", err, tt.reason)
			}
		})
	}
	for _, addr := range []string{"93.184.216.34", "8.8.8.8", "2606:4700::1111", "64:ff9b::808:808"} {
		t.Run(addr+" is public and allowed", func(t *testing.T) {
			if err := (Policy{}).Check("target.example", netip.MustParseAddr(addr)); err != nil {
				t.Fatalf("Check = %v, want allowed", err)
			}
		})
	}
}

func TestCheckHostResolvesTheNameBeforeChecking(t *testing.T) {
	err := Policy{}.CheckHost(context.Background(), "localhost")
	if !IsRefused(err) {
		t.Fatalf("CheckHost(localhost) = %v, want a refusal", err)
	}
	p, _ := ParsePolicy("localhost")
	if err := p.CheckHost(context.Background(), "localhost"); err != nil {
		t.Fatalf("CheckHost(localhost) with localhost allow-listed = %v", err)
	}
	if err := (Policy{}).CheckHost(context.Background(), "127.0.0.1"); !IsRefused(err) {
		t.Fatalf("CheckHost(127.0.0.1) = %v, want a refusal", err)
	}
}

func TestCheckLiteralRefusesWhatNoResolutionCanMakePublic(t *testing.T) {
	allowLocal, _ := ParsePolicy("localhost,10.1.0.0/16")
	for _, tt := range []struct {
		name   string
		policy Policy
		host   string
		reason string // "" when allowed
	}{
		{"a loopback address is refused", Policy{}, "127.0.0.1", "loopback address"},
		{"an IPv6 loopback in brackets is refused", Policy{}, "[::1]", "loopback address"},
		{"localhost is refused as loopback", Policy{}, "LocalHost.", "loopback address"},
		{"a name under localhost is refused as loopback", Policy{}, "api.localhost", "loopback address"},
		{"a private address is refused", Policy{}, "192.168.1.20", "private address"},
		{"a link-local address is refused", Policy{}, "169.254.169.254", "link-local address"},
		{"a public address passes", Policy{}, "93.184.216.34", ""},
		{"a name passes, since only its resolution can tell", Policy{}, "api.example.com", ""},
		{"an allow-listed name passes", allowLocal, "localhost", ""},
		{"an address in an allow-listed network passes", allowLocal, "10.1.2.3", ""},
		{"an address outside the allow-listed network is refused", allowLocal, "10.2.0.1", "private address"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.policy.CheckLiteral(tt.host)
			var refused *RefusedError
			switch {
			case tt.reason == "" && err != nil:
				t.Fatalf("CheckLiteral(%q) = %v, want allowed", tt.host, err)
			case tt.reason != "" && (!errors.As(err, &refused) || refused.Reason != tt.reason):
				t.Fatalf("CheckLiteral(%q) = %v, want a refusal for a %s", tt.host, err, tt.reason)
			}
		})
	}
}
